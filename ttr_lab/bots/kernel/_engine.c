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
int kg_shuffle_deck(KGame *g) {
    char text[128];
    if (!g->ndisc) return 0;
    int len = g->prefix_len;
    memcpy(text, g->prefix, (size_t)len);
    len += snprintf(text + len, sizeof text - (size_t)len, "%d", g->shuffles);
    KMT m;
    mt_seed_text(&m, text, len);
    g->shuffles++;
    memcpy(g->deck, g->disc, sizeof(int) * (size_t)g->ndisc);
    mt_shuffle(&m, g->deck, g->ndisc);
    g->ndeck = g->ndisc;
    g->ndisc = 0;
    return g->ndeck;
}

int kg_take(KGame *g) {
    if (!g->ndeck && !kg_shuffle_deck(g)) return -1;
    return g->deck[--g->ndeck];
}

#define take kg_take

static int any_cards(const KGame *g) { return g->ndeck || g->ndisc; }

static int take_for_slot(KGame *g) { return any_cards(g) ? take(g) : -1; }

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

/* row.py reset_futile, one pile: would every new row show three wilds again? */
static int reset_futile(const KGame *g, const KTables *t) {
    int n = g->ndeck + g->ndisc, nw = 0, wilds = 0;
    for (int i = 0; i < g->ndeck; i++) nw += g->deck[i] != t->wild;
    for (int i = 0; i < g->ndisc; i++) nw += g->disc[i] != t->wild;
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] >= 0) {
            n++;
            nw += g->row[i] != t->wild;
        }
    for (int i = 0; i < t->row_size; i++) {
        if (!n) return wilds >= 3;
        n--;
        if (nw)
            nw--;
        else
            wilds++;
    }
    return wilds >= 3;
}

static void check_reset(KGame *g, const KTables *t) {
    if (wilds_in_row(g, t) < 3) return;
    int done = 0;
    while (wilds_in_row(g, t) >= 3) {
        if (!any_cards(g)) return;
        if (t->max_resets >= 0 && done >= t->max_resets) return;
        if (reset_futile(g, t)) return;
        for (int i = 0; i < t->row_size; i++)
            if (g->row[i] >= 0) g->disc[g->ndisc++] = g->row[i];
        for (int i = 0; i < t->row_size; i++) g->row[i] = take_for_slot(g);
        done++;
        g->resets++;
    }
}

static void fill_empty_slots(KGame *g, const KTables *t) {
    if (!row_has_empty(g, t) || !any_cards(g)) return;
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] < 0) g->row[i] = take_for_slot(g);
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
    for (int i = 0; i < n; i++) g->disc[g->ndisc++] = cards[i];
    after_discard(g, t);
}

/* decks.py pay: k cards of colour (-1: none) and w wilds from the current hand, in the move's
 * card order (by name), each to the discard; then the row check */
void kg_pay(KGame *g, const KTables *t, int color, int k, int w) {
    int p = g->cur, wild_first = color < 0 || t->name_rank[t->wild] < t->name_rank[color];
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) == wild_first) {
            g->hands[p][t->wild] -= w;
            for (int j = 0; j < w; j++) g->disc[g->ndisc++] = t->wild;
        } else if (color >= 0) {
            g->hands[p][color] -= k;
            for (int j = 0; j < k; j++) g->disc[g->ndisc++] = color;
        }
    }
    if (k + w) after_discard(g, t);
}

/* ------------------------------------------------------------------ turns (turns.py) */
static void game_over(KGame *g) {
    g->phase = PH_OVER;
    g->turn++;
}

static void end_turn(KGame *g, const KTables *t) {
    int p = g->cur;
    if (g->final_ >= 0) {
        g->final_--;
        if (g->final_ == 0) {
            game_over(g);
            return;
        }
    } else if (g->pieces[p] <= t->end_threshold) {
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
    return any_cards(g);
}

void kg_action_done(KGame *g, const KTables *t) {
    g->passes = 0;
    end_turn(g, t);
}

void kg_complete_claim(KGame *g, const KTables *t, int ri) {
    int p = g->cur, L = t->rlen[ri];
    g->owners[ri] = p;
    g->claims++;
    g->last_claim = ri;
    g->pieces[p] -= L;
    g->scores[p] += t->points[L];
    kg_action_done(g, t);
}

static void after_first_card(KGame *g, const KTables *t, int wild_face_up) {
    if (wild_face_up || !has_second_pick(g, t))
        end_turn(g, t);
    else
        g->phase = PH_SECOND;
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
            if (t->deal_row_late) {
                for (int i = 0; i < t->row_size; i++) g->row[i] = take_for_slot(g);
                check_reset(g, t);
            }
            g->phase = PH_TURN;
            g->cur = g->first;
        } else {
            g->phase = PH_SETUP;
            g->cur = nxt;
            g->npending = g->nsetup[nxt];
            memcpy(g->pending, g->setup[nxt], sizeof(int) * (size_t)g->nsetup[nxt]);
        }
    } else {
        end_turn(g, t);
    }
}

/* ------------------------------------------------------------------ applying a move */
void kg_apply(KGame *g, const KTables *t, const KMove *m) {
    int p = g->cur;
    switch (m->kind) {
        case MV_FACEUP: {
            int i = m->a - 1, card = g->row[i];
            if (card >= 0) g->hands[p][card]++;
            g->row[i] = take_for_slot(g);
            check_reset(g, t);
            g->passes = 0;
            if (g->phase == PH_TURN)
                after_first_card(g, t, card == t->wild);
            else
                end_turn(g, t);
            break;
        }
        case MV_BLIND: {
            int card = take(g);
            if (card >= 0) g->hands[p][card]++;
            g->passes = 0;
            if (g->phase == PH_TURN)
                after_first_card(g, t, 0);
            else
                end_turn(g, t);
            break;
        }
        case MV_STOP:
            end_turn(g, t);
            break;
        case MV_CLAIM:
            if (t->tunnel[m->a]) {
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
            end_turn(g, t);
    }
}
