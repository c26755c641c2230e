/* The rules of the USA family (rules A1-A7, B1, C1, C3, C6), move by move as
 * ttr_lab/engine/rules/ applies them: decks.py (take, reshuffle, pay), row.py (the
 * row, the three-wild reset), drawing.py, claiming.py, tickets.py and
 * turns.py (the end of a turn, the final round); Europe's own rules are
 * _tunnels.c's and _stations.c's, called from here; the legal moves are
 * _legal.c's.
 */
#include <stdio.h>
#include <string.h>

#include "_kernel.h"

/* ------------------------------------------------------------------ cards (decks.py) */
int kg_shuffle_deck(KGame *g, int pile) {
    char text[128];
    if (!g->ndisc[pile]) return 0;
    int len = g->prefix_len;
    memcpy(text, g->prefix, (size_t)len);
    len += snprintf(text + len, sizeof text - (size_t)len, "%d", g->shuffles);
    KMT m;
    mt_seed_text(&m, text, len);
    g->shuffles++;
    memcpy(g->deck[pile], g->disc[pile], sizeof(int) * (size_t)g->ndisc[pile]);
    mt_shuffle(&m, g->deck[pile], g->ndisc[pile]);
    g->ndeck[pile] = g->ndisc[pile];
    g->ndisc[pile] = 0;
    return g->ndeck[pile];
}

int kg_take(KGame *g, int pile) {
    if (!g->ndeck[pile] && !kg_shuffle_deck(g, pile)) return -1;
    return g->deck[pile][--g->ndeck[pile]];
}

static int pile_has_cards(const KGame *g, int pile) { return g->ndeck[pile] || g->ndisc[pile]; }

int kg_any_cards(const KGame *g, const KTables *t) {
    for (int q = 0; q < t->npiles; q++)
        if (pile_has_cards(g, q)) return 1;
    return 0;
}

/* a card for a row slot from the pile, else from the first pile with cards (A2) */
static int take_for_slot(KGame *g, const KTables *t, int pile) {
    if (pile_has_cards(g, pile)) return kg_take(g, pile);
    for (int q = 0; q < t->npiles; q++)
        if (pile_has_cards(g, q)) return kg_take(g, q);
    return -1;
}

/* a card to its pile's discard (decks.py to_discard; no row check) */
static void to_discard(KGame *g, const KTables *t, int c) {
    int q = t->card_pile[c];
    g->disc[q][g->ndisc[q]++] = c;
}

/* row.py _deal_new_row: each pile deals its share of the row */
static void deal_new_row(KGame *g, const KTables *t) {
    for (int q = 0, i = 0; q < t->npiles; q++)
        for (int j = 0; j < t->row_split[q]; j++) g->row[i++] = take_for_slot(g, t, q);
}

static int wilds_in_row(const KGame *g, const KTables *t) {
    int k = 0;
    for (int i = 0; i < t->row_size; i++) k += g->row[i] == t->wild;
    return k;
}

static int row_has_empty(const KGame *g, const KTables *t) {
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] < 0) return 1;
    return 0;
}

/* row.py reset_futile: would every new row show three wilds again?  Each pile deals its share
 * (an empty pile passes the slot to the first pile with cards), from its deck and discard and
 * the row's cards going back to it; the fewest wilds such a deal could hold */
static int reset_futile(const KGame *g, const KTables *t) {
    int n[KT_MAX_PILES], nw[KT_MAX_PILES], wilds = 0;
    for (int q = 0; q < t->npiles; q++) {
        n[q] = g->ndeck[q] + g->ndisc[q];
        nw[q] = 0;
        for (int i = 0; i < g->ndeck[q]; i++) nw[q] += g->deck[q][i] != t->wild;
        for (int i = 0; i < g->ndisc[q]; i++) nw[q] += g->disc[q][i] != t->wild;
    }
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] >= 0) {
            int q = t->card_pile[g->row[i]];
            n[q]++;
            nw[q] += g->row[i] != t->wild;
        }
    for (int pile = 0; pile < t->npiles; pile++)
        for (int j = 0; j < t->row_split[pile]; j++) {
            int q = pile;
            if (!n[q])
                for (q = 0; q < t->npiles && !n[q]; q++) continue;
            if (q >= t->npiles) return wilds >= 3;
            n[q]--;
            if (nw[q])
                nw[q]--;
            else
                wilds++;
        }
    return wilds >= 3;
}

static void check_reset(KGame *g, const KTables *t) {
    if (wilds_in_row(g, t) < 3) return;
    int done = 0;
    while (wilds_in_row(g, t) >= 3) {
        if (!kg_any_cards(g, t)) return;
        if (t->max_resets >= 0 && done >= t->max_resets) return;
        if (reset_futile(g, t)) return;
        for (int i = 0; i < t->row_size; i++)
            if (g->row[i] >= 0) to_discard(g, t, g->row[i]);
        deal_new_row(g, t);
        done++;
        g->resets++;
    }
}

static void fill_empty_slots(KGame *g, const KTables *t) {
    if (!row_has_empty(g, t) || !kg_any_cards(g, t)) return;
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] < 0) g->row[i] = take_for_slot(g, t, t->slot_pile[i]);
    check_reset(g, t);
}

static void after_discard(KGame *g, const KTables *t) {
    if (row_has_empty(g, t))
        fill_empty_slots(g, t);
    else if (t->max_resets < 0)
        check_reset(g, t);
}

void kg_discard(KGame *g, const KTables *t, const int *cards, int n) {
    if (!n) return;
    for (int i = 0; i < n; i++) to_discard(g, t, cards[i]);
    after_discard(g, t);
}

/* decks.py pay: k cards of colour (-1: none) and w wilds from the current hand, in the move's
 * card order (by name), each to the discard; then the row check */
void kg_pay(KGame *g, const KTables *t, int color, int k, int w) {
    int p = g->cur, wild_first = color < 0 || t->name_rank[t->wild] < t->name_rank[color];
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) == wild_first) {
            g->hands[p][t->wild] -= w;
            for (int j = 0; j < w; j++) to_discard(g, t, t->wild);
        } else if (color >= 0) {
            g->hands[p][color] -= k;
            for (int j = 0; j < k; j++) to_discard(g, t, color);
        }
    }
    if (k + w) after_discard(g, t);
}

/* ------------------------------------------------------------------ turns (turns.py) */
static void game_over(KGame *g) {
    g->phase = PH_OVER;
    g->turn++;
}

void kg_end_turn(KGame *g, const KTables *t) {
    int p = g->cur;
    if (g->final_ >= 0) {
        g->final_--;
        if (g->final_ == 0) {
            game_over(g);
            return;
        }
    } else if (g->pieces[p] + (t->family == KF_RS ? g->ships[p] : 0) <= t->end_threshold) { /* R&S: both kinds */
        g->final_ = g->n * t->final_turns;
    }
    if (g->passes >= g->n) {
        game_over(g);
        return;
    }
    g->turn++;
    g->cur = (p + 1) % g->n;
    g->phase = PH_TURN;
}

static int has_second_pick(const KGame *g, const KTables *t) {
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] >= 0 && g->row[i] != t->wild) return 1;
    return kg_any_cards(g, t);
}

void kg_action_done(KGame *g, const KTables *t) {
    g->passes = 0;
    kg_end_turn(g, t);
}

void kg_complete_claim(KGame *g, const KTables *t, int ri) {
    int p = g->cur, L = t->rlen[ri];
    g->owners[ri] = p;
    g->claims++;
    g->last_claim = ri;
    if (t->family == KF_RS && t->rkind[ri] == 1)
        g->ships[p] -= L;
    else
        g->pieces[p] -= L;
    g->scores[p] += t->points[L];
    kg_action_done(g, t);
}

static void after_first_card(KGame *g, const KTables *t, int wild_face_up) {
    if (wild_face_up || !has_second_pick(g, t))
        kg_end_turn(g, t);
    else
        g->phase = PH_SECOND;
}

/* tickets.py start_play: the row dealt now if dealt late (C3), and the first turn */
void kg_start_play(KGame *g, const KTables *t) {
    if (t->deal_row_late) {
        deal_new_row(g, t);
        check_reset(g, t);
    }
    g->phase = PH_TURN;
    g->cur = g->first;
}

/* ------------------------------------------------------------------ tickets (tickets.py) */
static void return_tickets(KGame *g, const int *returned, int k) {
    /* under the deck: tuple(reversed(returned)) + deck */
    memmove(g->tdeck + k, g->tdeck, sizeof(int) * (size_t)g->ntdeck);
    for (int i = 0; i < k; i++) g->tdeck[i] = returned[k - 1 - i];
    g->ntdeck += k;
}

static void apply_keep(KGame *g, const KTables *t, int mask) {
    int p = g->cur, kept[KT_MAX_PENDING], nk = 0, returned[KT_MAX_PENDING], nr = 0;
    for (int i = 0; i < g->npending; i++) {
        if (mask >> i & 1)
            kept[nk++] = g->pending[i];
        else
            returned[nr++] = g->pending[i];
    }
    for (int i = 1; i < nk; i++) /* the move names its tickets in id order */
        for (int j = i; j > 0 && t->tid[kept[j]] < t->tid[kept[j - 1]]; j--) {
            int x = kept[j];
            kept[j] = kept[j - 1];
            kept[j - 1] = x;
        }
    for (int i = 0; i < nk; i++) g->tickets[p][g->ntickets[p]++] = kept[i];
    g->npending = 0;
    if (g->phase == PH_SETUP && t->setup_to_box) { /* Europe: unkept initial tickets to the box */
        for (int i = 0; i < nr; i++) g->box[g->nbox++] = returned[i];
    } else {
        return_tickets(g, returned, nr);
    }
    if (g->phase == PH_SETUP) {
        int nxt = (p + 1) % g->n;
        if (nxt == g->first) {
            g->has_setup = 0;
            memset(g->nsetup, 0, sizeof g->nsetup);
            if (t->family == KF_RS) { /* Rails & Sails: the seats split their pieces first (B4) */
                g->phase = PH_PIECES;
                g->cur = g->first;
            } else {
                kg_start_play(g, t);
            }
        } else {
            g->phase = PH_SETUP;
            g->cur = nxt;
            g->npending = g->nsetup[nxt];
            memcpy(g->pending, g->setup[nxt], sizeof(int) * (size_t)g->nsetup[nxt]);
        }
    } else {
        kg_end_turn(g, t);
    }
}

/* ------------------------------------------------------------------ applying a move */
void kg_apply(KGame *g, const KTables *t, const KMove *m) {
    int p = g->cur;
    switch (m->kind) {
        case MV_FACEUP: { /* Rails & Sails: the move names the pile refilling the slot */
            int i = m->a - 1, card = g->row[i];
            if (card >= 0) g->hands[p][card]++;
            g->row[i] = take_for_slot(g, t, t->family == KF_RS ? m->b : t->slot_pile[i]);
            check_reset(g, t);
            g->passes = 0;
            if (g->phase == PH_TURN)
                after_first_card(g, t, card == t->wild);
            else
                kg_end_turn(g, t);
            break;
        }
        case MV_BLIND: {
            int card = kg_take(g, t->family == KF_RS ? m->a : 0); /* Rails & Sails: the pile it names */
            if (card >= 0) g->hands[p][card]++;
            g->passes = 0;
            if (g->phase == PH_TURN)
                after_first_card(g, t, 0);
            else
                kg_end_turn(g, t);
            break;
        }
        case MV_STOP:
            kg_end_turn(g, t);
            break;
        case MV_HARBOR:
        case MV_PIECES:
        case MV_EXCHANGE:
            rs_apply(g, t, m);
            break;
        case MV_CLAIM:
            if (t->family == KF_RS) {
                rs_apply(g, t, m);
            } else if (t->tunnel[m->a]) {
                ke_claim_tunnel(g, t, m);
            } else {
                kg_pay(g, t, m->b, m->c, t->rlen[m->a] - m->c);
                kg_complete_claim(g, t, m->a);
            }
            break;
        case MV_TICKETS: {
            int k = t->draw_k < g->ntdeck ? t->draw_k : g->ntdeck;
            for (int i = 0; i < k; i++) g->pending[i] = g->tdeck[g->ntdeck - 1 - i];
            g->npending = k;
            g->ntdeck -= k;
            g->passes = 0;
            g->phase = PH_KEEP;
            break;
        }
        case MV_KEEP:
            apply_keep(g, t, m->a);
            break;
        case MV_STATION:
            ke_build_station(g, t, m);
            break;
        case MV_TPAY:
            ke_pay_tunnel(g, t, m);
            break;
        case MV_TDECLINE:
            ke_decline_tunnel(g, t);
            break;
        default: /* MV_PASS */
            g->passes++;
            kg_end_turn(g, t);
    }
}
