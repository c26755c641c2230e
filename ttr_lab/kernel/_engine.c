/* The rules of the USA family (rules A1-A7, B1, C1, C3, C6), move by move as
 * ttr_lab/core/ applies them: decks.py (take, reshuffle, pay), row.py (the
 * row, the three-wild reset), drawing.py, claiming.py, tickets.py and
 * turns.py (the end of a turn, the final round).  The legal moves come out
 * in the engine's order (LegalMoves: face-up, blind, claims by route and
 * payment, tickets; keeps by their tickets), which the random bot indexes.
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

static int take(KGame *g) {
    if (!g->ndeck && !kg_shuffle_deck(g)) return -1;
    return g->deck[--g->ndeck];
}

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
    return_tickets(g, returned, nr);
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
        case MV_CLAIM: {
            int ri = m->a, color = m->b, k = m->c, L = t->rlen[ri], w = L - k;
            /* paid in the move's card order (by name), each card to the discard */
            int wild_first = color < 0 || t->name_rank[t->wild] < t->name_rank[color];
            for (int pass = 0; pass < 2; pass++) {
                if ((pass == 0) == wild_first) {
                    g->hands[p][t->wild] -= w;
                    for (int j = 0; j < w; j++) g->disc[g->ndisc++] = t->wild;
                } else if (color >= 0) {
                    g->hands[p][color] -= k;
                    for (int j = 0; j < k; j++) g->disc[g->ndisc++] = color;
                }
            }
            after_discard(g, t);
            g->owners[ri] = p;
            g->pieces[p] -= L;
            g->scores[p] += t->points[L];
            g->passes = 0;
            end_turn(g, t);
            break;
        }
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
        default: /* MV_PASS */
            g->passes++;
            end_turn(g, t);
    }
}

/* ------------------------------------------------------------------ legal moves */
int kg_route_open_to(const KGame *g, const KTables *t, int ri, int p) {
    if (g->owners[ri] >= 0) return 0;
    int pr = t->partner[ri];
    if (pr >= 0) {
        int po = g->owners[pr];
        if (po >= 0 && g->n < t->double_min) return 0;
        if (po == p) return 0;
    }
    return 1;
}

/* cards.py basic_payment_options, in the engine's move order (the cards by name) */
static int pay_cmp(const KTables *t, const KMove *x, const KMove *y) {
    int kx[4], ky[4], nx = 0, ny = 0;
    const KMove *m[2] = {x, y};
    for (int s = 0; s < 2; s++) {
        int *k = s ? ky : kx, *n = s ? &ny : &nx;
        int L = t->rlen[m[s]->a], w = L - m[s]->c, color = m[s]->b;
        int pairs[2][2], np = 0;
        if (color >= 0) {
            pairs[np][0] = t->name_rank[color];
            pairs[np++][1] = m[s]->c;
        }
        if (w) {
            pairs[np][0] = t->name_rank[t->wild];
            pairs[np++][1] = w;
        }
        if (np == 2 && pairs[1][0] < pairs[0][0]) {
            int a = pairs[0][0], b = pairs[0][1];
            pairs[0][0] = pairs[1][0];
            pairs[0][1] = pairs[1][1];
            pairs[1][0] = a;
            pairs[1][1] = b;
        }
        for (int i = 0; i < np; i++) {
            k[2 * i] = pairs[i][0];
            k[2 * i + 1] = pairs[i][1];
        }
        *n = 2 * np;
    }
    for (int i = 0; i < nx && i < ny; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return nx - ny;
}

int kg_payments(const KTables *t, const int *hand, int ri, KMove *out) {
    int L = t->rlen[ri], W = hand[t->wild], n = 0;
    if (W >= L) out[n++] = (KMove){MV_CLAIM, ri, -1, 0};
    int top = W < L - 1 ? W : L - 1;
    int lo_c = t->rcolor[ri] < 0 ? 0 : t->rcolor[ri], hi_c = t->rcolor[ri] < 0 ? t->wild - 1 : t->rcolor[ri];
    for (int ci = lo_c; ci <= hi_c; ci++) {
        int c = hand[ci];
        if (!c) continue;
        int lo = c < L ? L - c : 0;
        for (int k = lo; k <= top; k++) out[n++] = (KMove){MV_CLAIM, ri, ci, L - k};
    }
    for (int i = 1; i < n; i++) /* insertion sort: a handful of payments */
        for (int j = i; j > 0 && pay_cmp(t, &out[j], &out[j - 1]) < 0; j--) {
            KMove x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    return n;
}

static int keep_min(const KGame *g, const KTables *t) {
    int k = g->phase == PH_SETUP ? t->setup_keep : t->draw_keep;
    return k < g->npending ? k : g->npending;
}

/* keeps in the engine's order: by their tickets' ids, as tuples */
static int keep_cmp(const KGame *g, const KTables *t, int x, int y) {
    int ids[2][KT_MAX_PENDING], n[2] = {0, 0}, masks[2] = {x, y};
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < g->npending; i++)
            if (masks[s] >> i & 1) ids[s][n[s]++] = t->tid[g->pending[i]];
        for (int i = 1; i < n[s]; i++)
            for (int j = i; j > 0 && ids[s][j] < ids[s][j - 1]; j--) {
                int v = ids[s][j];
                ids[s][j] = ids[s][j - 1];
                ids[s][j - 1] = v;
            }
    }
    for (int i = 0; i < n[0] && i < n[1]; i++)
        if (ids[0][i] != ids[1][i]) return ids[0][i] < ids[1][i] ? -1 : 1;
    return n[0] - n[1];
}

static int keeps(const KGame *g, const KTables *t, int *out) {
    int n = 0, need = keep_min(g, t);
    for (int mask = 0; mask < 1 << g->npending; mask++)
        if (__builtin_popcount((unsigned)mask) >= need) out[n++] = mask;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && keep_cmp(g, t, out[j], out[j - 1]) < 0; j--) {
            int x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    return n;
}

/* Walk the legal moves in order: returns how many there are; the one at
 * index want (if any) goes to out, and the walk stops there (returning a
 * positive count).  A gray route's payments depend only on its length and
 * the hand, so they are counted once per length.  ks (or NULL): each route's
 * payments, written by a count (want < 0) and read by the walk that follows
 * it on the same position. */
static int legal_walk(const KGame *g, const KTables *t, int want, KMove *out, int *ks) {
    int n = 0, ph = g->phase;
    KMove pays[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
    if (ph == PH_SETUP || ph == PH_KEEP) {
        int masks[1 << KT_MAX_PENDING];
        int k = keeps(g, t, masks);
        if (want >= 0 && want < k) *out = (KMove){MV_KEEP, masks[want], 0, 0};
        return k;
    }
    if (ph != PH_TURN && ph != PH_SECOND) return 0;
    for (int i = 0; i < t->row_size; i++) {
        int c = g->row[i];
        if (c < 0 || (ph == PH_SECOND && c == t->wild)) continue;
        if (n == want) {
            *out = (KMove){MV_FACEUP, i + 1, 0, 0};
            return n + 1;
        }
        n++;
    }
    if (any_cards(g)) {
        if (n == want) {
            *out = (KMove){MV_BLIND, 0, 0, 0};
            return n + 1;
        }
        n++;
    }
    if (ph == PH_SECOND) {
        if (t->single_draw && n) {
            if (n == want) *out = (KMove){MV_STOP, 0, 0, 0};
            n++;
        }
        return n;
    }
    const int me = g->cur, *hand = g->hands[me], W = hand[t->wild], pieces = g->pieces[me];
    if (want >= 0 && ks) {
        for (int ri = 0; ri < t->nroutes; ri++) {
            int k = ks[ri];
            if (want >= n && want < n + k) {
                kg_payments(t, hand, ri, pays);
                *out = pays[want - n];
                return n + k;
            }
            n += k;
        }
        goto tickets;
    }
    /* payments by route colour and length: tab[0] gray, tab[c + 1] colour c (a colour the hand
     * lacks gives lo = L > top, so nothing but the all-wild payment) */
    int tab[KT_MAX_CARD_TYPES + 1][KT_MAX_LENGTH + 1];
    for (int L = 1; L <= t->maxlen; L++) {
        int base = W >= L, top = W < L - 1 ? W : L - 1, gray = base;
        for (int ci = 0; ci < t->wild; ci++) {
            int c = hand[ci], lo = c < L ? L - c : 0, k = top - lo + 1 > 0 ? top - lo + 1 : 0;
            gray += k;
            tab[ci + 1][L] = base + k;
        }
        tab[0][L] = gray;
    }
    /* the owners, with an unowned slot at nroutes for routes without a double */
    int own[KT_MAX_ROUTES + 1];
    memcpy(own, g->owners, sizeof(int) * (size_t)t->nroutes);
    own[t->nroutes] = -1;
    const int few = g->n < t->double_min;
    for (int ri = 0; ri < t->nroutes; ri++) { /* kg_route_open_to, without branches */
        int L = t->rlen[ri], pr = t->partner[ri], po = own[pr >= 0 ? pr : t->nroutes];
        int open = (own[ri] < 0) & (pieces >= L) & !((po >= 0) & (few | (po == me)));
        int k = tab[t->rcolor[ri] + 1][L] & -open;
        if (ks) ks[ri] = k;
        if (want >= n && want < n + k) {
            kg_payments(t, hand, ri, pays);
            *out = pays[want - n];
            return n + k;
        }
        n += k;
    }
tickets:
    if (g->ntdeck) {
        if (n == want) *out = (KMove){MV_TICKETS, 0, 0, 0};
        n++;
    }
    if (!n) {
        if (want == 0) *out = (KMove){MV_PASS, 0, 0, 0};
        n = 1;
    }
    return n;
}

int kg_legal_count(const KGame *g, const KTables *t) { return legal_walk(g, t, -1, NULL, NULL); }

int kg_first_legal(const KGame *g, const KTables *t, KMove *out) { return legal_walk(g, t, 0, out, NULL) > 0 ? 0 : -1; }

/* ------------------------------------------------------------------ the random bot (bots.py RandomBot) */
int kr_choose(KMT *rngs, const KGame *g, const KTables *t, KMove *out) {
    int ks[KT_MAX_ROUTES];
    int n = legal_walk(g, t, -1, NULL, ks);
    if (n <= 0) return -1;
    int i = (int)mt_below(&rngs[g->cur], (uint32_t)n);
    legal_walk(g, t, i, out, ks);
    return 0;
}
