/* The legal moves of a position (ttr_lab/engine/legal_moves.py and the rules' groups), in
 * the engine's order, which the random bot indexes: face-up cards, the blind draw (in a second
 * pick: stopping), claims by route and payment (cards.py basic_payment_options; a ferry's
 * locomotives first), stations by city and payment, tickets, or a pass when there is none;
 * keeps by their tickets; a tunnel's payments, then declining.
 */
#include <stdint.h>
#include <string.h>

#include "_kernel.h"


/* ------------------------------------------------------------------ routes and payments */
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

/* cards.py basic_payment_options, in the engine's move order: by the move's cards, (name,
 * count) pairs sorted by name, compared as tuples.  Each payment's key packs its pairs (the rank
 * of the name + 1, then the count, 8 bits each; an absent second pair is 0, so a shorter tuple
 * comes first) */
static uint32_t pay_key(const KTables *t, int L, const KMove *m) {
    int w = L - m->c, color = m->b;
    uint32_t wild = (uint32_t)(t->name_rank[t->wild] + 1) << 8 | (uint32_t)w;
    if (color < 0) return wild << 16;
    uint32_t own = (uint32_t)(t->name_rank[color] + 1) << 8 | (uint32_t)m->c;
    if (!w) return own << 16;
    return t->name_rank[t->wild] < t->name_rank[color] ? wild << 16 | own : own << 16 | wild;
}

int kg_pay_list(const KTables *t, const int *hand, int ri, int L, int color, int minw, KMove *out) {
    int W = hand[t->wild], n = 0;
    uint32_t key[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
    if (W >= L) out[n++] = (KMove){MV_CLAIM, ri, -1, 0};
    int top = W < L - 1 ? W : L - 1;
    int lo_c = color < 0 ? 0 : color, hi_c = color < 0 ? t->wild - 1 : color;
    for (int ci = lo_c; ci <= hi_c; ci++) {
        int c = hand[ci];
        if (!c) continue;
        int lo = c < L ? L - c : 0;
        if (lo < minw) lo = minw;
        for (int k = lo; k <= top; k++) out[n++] = (KMove){MV_CLAIM, ri, ci, L - k};
    }
    for (int i = 0; i < n; i++) { /* insertion sort by key: a handful of payments */
        KMove x = out[i];
        uint32_t kx = pay_key(t, L, &x);
        int j = i;
        for (; j > 0 && key[j - 1] > kx; j--) {
            out[j] = out[j - 1];
            key[j] = key[j - 1];
        }
        out[j] = x;
        key[j] = kx;
    }
    return n;
}

int kg_payments(const KTables *t, const int *hand, int ri, KMove *out) {
    return kg_pay_list(t, hand, ri, t->rlen[ri], t->rcolor[ri], t->minw[ri], out);
}

int kg_pay_count(const KTables *t, const int *hand, int L, int color, int minw) {
    int W = hand[t->wild], n = W >= L, top = W < L - 1 ? W : L - 1;
    int lo_c = color < 0 ? 0 : color, hi_c = color < 0 ? t->wild - 1 : color;
    for (int ci = lo_c; ci <= hi_c; ci++) {
        int c = hand[ci];
        if (!c) continue;
        int lo = c < L ? L - c : 0;
        if (lo < minw) lo = minw;
        if (top >= lo) n += top - lo + 1;
    }
    return n;
}

static int keep_min(const KGame *g, const KTables *t) {
    int k = g->phase == PH_SETUP ? t->setup_keep : t->draw_keep;
    return k < g->npending ? k : g->npending;
}

/* keeps in the engine's order: by their tickets' ids, as tuples (a stable sort of the masks) */
int kg_keeps(const KGame *g, const KTables *t, int *out) {
    int np = g->npending, need = keep_min(g, t), n = 0, by_id[KT_MAX_PENDING];
    int ids[1 << KT_MAX_PENDING][KT_MAX_PENDING], len[1 << KT_MAX_PENDING];
    for (int i = 0; i < np; i++) { /* the pending tickets' positions by id */
        int j = i;
        for (; j > 0 && t->tid[g->pending[by_id[j - 1]]] > t->tid[g->pending[i]]; j--) by_id[j] = by_id[j - 1];
        by_id[j] = i;
    }
    for (int mask = 0; mask < 1 << np; mask++) {
        int k = 0;
        for (int i = 0; i < np; i++)
            if (mask >> by_id[i] & 1) ids[mask][k++] = t->tid[g->pending[by_id[i]]];
        len[mask] = k;
        if (k < need) continue;
        int j = n++;
        for (; j > 0; j--) { /* insert after the keeps whose ids come first or are the same */
            const int *x = ids[mask], *y = ids[out[j - 1]];
            int ly = len[out[j - 1]], i = 0;
            while (i < k && i < ly && x[i] == y[i]) i++;
            if (i < k && i < ly ? x[i] > y[i] : k >= ly) break;
            out[j] = out[j - 1];
        }
        out[j] = mask;
    }
    return n;
}

/* each route's number of payments for this hand: with W wilds and c cards of its colour, a
 * route of length L pays in max(0, min(c + W + 1 - L, W + 1, L)) ways with that colour (none for
 * a colour the hand lacks), a gray route in the sum of those over the colours, and either also
 * all in wilds if W >= L; none above pieces.  Per length: A = min(W + 1, L), d = A - L, base =
 * (W >= L) and the gray route's count (a sum in 16-bit lanes, for the compiler to vectorize). */
void kg_pay_lengths(const KTables *t, const int *hand, int pieces, PayLen *pl) {
    const int W = hand[t->wild];
    int16_t c[KT_MAX_CARD_TYPES] = {0};
    for (int ci = 0; ci < t->wild; ci++) c[ci] = (int16_t)hand[ci];
    for (int L = 1; L <= t->maxlen; L++) {
        if (L > pieces) {
            pl[L] = (PayLen){0, 0, 0, 0};
            continue;
        }
        const int16_t A = (int16_t)(W + 1 < L ? W + 1 : L), d = (int16_t)(A - L);
        int16_t gray = 0;
        for (int ci = 0; ci < KT_MAX_CARD_TYPES; ci++) {
            int16_t k = (int16_t)(c[ci] + d);
            k = k < A ? k : A;
            gray = (int16_t)(gray + (k > 0 ? k : 0));
        }
        pl[L] = (PayLen){A, d, W >= L, gray + (W >= L)};
    }
}

int kg_route_pays(const KTables *t, const PayLen *pl, const int *hand, int ri) {
    int L = t->rlen[ri], color = t->rcolor[ri];
    if (!pl[L].A) return 0; /* longer than the pieces */
    if (t->minw[ri]) return kg_pay_count(t, hand, L, color, t->minw[ri]);
    if (color < 0) return pl[L].gray;
    int k = hand[color] + pl[L].d;
    k = k < pl[L].A ? k : pl[L].A;
    return pl[L].base + (k > 0 ? k : 0);
}

/* the first moves of a turn in order: face-up cards and the blind draw (in a second pick,
 * stopping); list holds KT_MAX_ROW + 2 */
int kg_draws_list(const KGame *g, const KTables *t, KMove *list) {
    int n = 0, second = g->phase == PH_SECOND;
    for (int i = 0; i < t->row_size; i++) {
        int c = g->row[i];
        if (c >= 0 && !(second && c == t->wild)) list[n++] = (KMove){MV_FACEUP, i + 1, 0, 0};
    }
    if (kg_any_cards(g, t)) list[n++] = (KMove){MV_BLIND, 0, 0, 0};
    if (second && t->single_draw && n) list[n++] = (KMove){MV_STOP, 0, 0, 0};
    return n;
}

/* Walk the legal moves in order: returns how many there are; the one at
 * index want (if any) goes to out, and the walk stops there (returning a
 * positive count). */
static int legal_walk(const KGame *g, const KTables *t, int want, KMove *out) {
    int ph = g->phase;
    if (ph == PH_SETUP || ph == PH_KEEP) {
        int masks[1 << KT_MAX_PENDING];
        int k = kg_keeps(g, t, masks);
        if (want >= 0 && want < k) *out = (KMove){MV_KEEP, masks[want], 0, 0};
        return k;
    }
    if (t->family == KF_RS && (ph == PH_PIECES || ph == PH_TURN || ph == PH_SECOND)) return rs_legal_walk(g, t, want, out);
    if (ph == PH_TUNNEL) {
        KMove tm[KT_MAX_LENGTH + 2];
        int k = ke_tunnel_moves(g, t, tm);
        if (want >= 0 && want < k) *out = tm[want];
        return k;
    }
    if (ph != PH_TURN && ph != PH_SECOND) return 0;
    KMove draws[KT_MAX_ROW + 2];
    int n = kg_draws_list(g, t, draws);
    if (want >= 0 && want < n) *out = draws[want];
    if (ph == PH_SECOND || (want >= 0 && want < n)) return n;
    const int me = g->cur, *hand = g->hands[me];
    PayLen pl[KT_MAX_LENGTH + 1];
    kg_pay_lengths(t, hand, g->pieces[me], pl);
    for (int ri = 0; ri < t->nroutes; ri++) {
        if (!kg_route_open_to(g, t, ri, me)) continue;
        int k = kg_route_pays(t, pl, hand, ri);
        if (want >= n && want < n + k) {
            KMove pays[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
            kg_payments(t, hand, ri, pays);
            *out = pays[want - n];
            return n + k;
        }
        n += k;
    }
    if (t->stations_max) {
        int k = ke_station_cities(g, t) * ke_station_ways(g, t);
        if (want >= n && want < n + k) {
            ke_station_move(g, t, want - n, out);
            return n + k;
        }
        n += k;
    }
    if (g->ntdeck && n++ == want) *out = (KMove){MV_TICKETS, 0, 0, 0};
    if (!n) {
        if (want == 0) *out = (KMove){MV_PASS, 0, 0, 0};
        n = 1;
    }
    return n;
}

int kg_legal_count(const KGame *g, const KTables *t) { return legal_walk(g, t, -1, NULL); }

int kg_first_legal(const KGame *g, const KTables *t, KMove *out) { return legal_walk(g, t, 0, out) > 0 ? 0 : -1; }

