/* Rails & Sails' own rules (rule B4, resolutions C6, C7, C15), move by move as
 * ttr_lab/editions/rails_sails/ applies them: piles.py (a face-up pick names the pile refilling its
 * slot; a blind draw its pile), pieces.py (the secret split at setup, trains and ships in supply),
 * exchange.py (pieces from the box, a point each, and the [rec] all-pass rule), harbors.py
 * (building); the legal moves of its phases in the engine's order, which the random bot indexes.
 * Pile 0 is the train pile and pile 1 the ship pile (the tables are checked for it); moves name
 * piles in name order: ships, then trains.
 */
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"

static const int by_name[2] = {1, 0}; /* the piles in name order: "ships", "trains" */

static int pile_has_cards(const KGame *g, int q) { return g->ndeck[q] || g->ndisc[q]; }

int rs_draws_list(const KGame *g, const KTables *t, KMove *list) {
    int n = 0, second = g->phase == PH_SECOND;
    for (int i = 0; i < t->row_size; i++) {
        int c = g->row[i];
        if (c >= 0 && !(second && c == t->wild))
            for (int j = 0; j < 2; j++) list[n++] = (KMove){MV_FACEUP, i + 1, by_name[j], 0};
    }
    for (int j = 0; j < 2; j++)
        if (pile_has_cards(g, by_name[j])) list[n++] = (KMove){MV_BLIND, by_name[j], 0, 0};
    if (second && t->single_draw && n) list[n++] = (KMove){MV_STOP, 0, 0, 0};
    return n;
}

int rs_route_open(const KGame *g, const KTables *t, int ri, int p) {
    return kg_route_open_to(g, t, ri, p) && t->rlen[ri] <= (t->rkind[ri] == 1 ? g->ships[p] : g->pieces[p]);
}

int rs_harbor_sites(const KGame *g, const KTables *t, int p, int *cities) {
    unsigned char touch[KT_MAX_CITIES] = {0};
    int n = 0;
    if (g->nharbors[p] >= t->harbors_max) return 0;
    for (int ri = 0; ri < t->nroutes; ri++)
        if (g->owners[ri] == p) touch[t->ra[ri]] = touch[t->rb[ri]] = 1;
    for (int k = 0; k < t->nhcity; k++) {
        int c = t->hcity[k];
        if (touch[c] && g->harbor_at[c] < 0) cities[n++] = c;
    }
    return n;
}

static int any_claim(const KGame *g, const KTables *t, int p) {
    for (int ri = 0; ri < t->nroutes; ri++)
        if (kg_route_open_to(g, t, ri, p) && rs_route_pays(t, g, p, ri)) return 1;
    return 0;
}

/* exchange.py only_exchanges_possible: no card to draw, claim, harbor or ticket draw */
static int only_exchanges(const KGame *g, const KTables *t) {
    int p = g->cur, cities[KT_MAX_CITIES];
    for (int i = 0; i < t->row_size; i++)
        if (g->row[i] >= 0) return 0;
    if (kg_any_cards(g, t) || g->ntdeck) return 0;
    if (rs_harbor_sites(g, t, p, cities) && rs_harbor_count(t, g->hands[p])) return 0;
    return !any_claim(g, t, p);
}

/* the legal moves of a split, a turn or a second pick, in order (as legal_walk, _legal.c):
 * face-up picks, blind draws (a second pick: stopping), claims by route and payment, harbors by
 * city (by name) and payment, exchanges (ships taken, then trains), tickets; or a pass */
/* the per-move work the walk shares between counting and picking: each route class's payments
 * (-1: not counted yet, counted when an open route needs it), the harbor sites */
typedef struct {
    int pays_of[KT_MAX_ROUTES];
    int cities[KT_MAX_CITIES], ncities;
    const uint64_t *open; /* the routes open to the seat (the random bot's sets), or NULL: asked route by route */
} Walk;

static void walk_init(Walk *w, const KGame *g, const KTables *t) {
    for (int k = 0; k < t->nclass; k++) w->pays_of[k] = -1;
    w->ncities = g->phase == PH_TURN ? rs_harbor_sites(g, t, g->cur, w->cities) : 0;
    w->open = NULL;
}

static int walk(const KGame *g, const KTables *t, int want, KMove *out, Walk *w) {
    const int me = g->cur;
    if (g->phase == PH_PIECES) {
        int k = t->train_hi - t->train_lo + 1;
        if (want >= 0 && want < k) *out = (KMove){MV_PIECES, t->train_lo + want, 0, 0};
        return k;
    }
    KMove draws[RS_MAX_DRAWS];
    int n = rs_draws_list(g, t, draws);
    if (want >= 0 && want < n) *out = draws[want];
    if (g->phase == PH_SECOND || (want >= 0 && want < n)) return n;
    const int *hand = g->hands[me];
    for (int ri = 0; ri < t->nroutes; ri++) {
        if (w->open ? !(w->open[ri >> 6] >> (ri & 63) & 1) : !kg_route_open_to(g, t, ri, me)) continue;
        int *k_of = &w->pays_of[t->rclass[ri]];
        if (*k_of < 0) *k_of = rs_route_pays(t, g, me, ri);
        int k = *k_of;
        if (!k) continue;
        if (want >= n && want < n + k) {
            RSPay *pays = malloc(sizeof(RSPay) * (size_t)k);
            if (!pays) return -1;
            int got = rs_payments(t, hand, ri, pays, k);
            if (want - n < got) *out = pays[want - n].m; /* always: the count is the listing's */
            free(pays);
            return want - n < got ? n + k : -1;
        }
        n += k;
    }
    const int *cities = w->cities, ns = w->ncities, hc = ns ? rs_harbor_count(t, hand) : 0;
    for (int i = 0; i < ns && hc; i++) {
        if (want >= n && want < n + hc) {
            RSPay pays[64];
            int got = rs_harbor_payments(t, hand, cities[i], pays);
            if (want - n >= got) return -1; /* never: the count is the listing's */
            *out = pays[want - n].m;
            return n + hc;
        }
        n += hc;
    }
    int ks = g->sbox[me] < g->pieces[me] ? g->sbox[me] : g->pieces[me];
    int kt = g->tbox[me] < g->ships[me] ? g->tbox[me] : g->ships[me];
    if (want >= n && want < n + ks + kt) {
        *out = want < n + ks ? (KMove){MV_EXCHANGE, 1, want - n + 1, 0} : (KMove){MV_EXCHANGE, 0, want - n - ks + 1, 0};
        return n + ks + kt;
    }
    n += ks + kt;
    if (g->ntdeck && n++ == want) *out = (KMove){MV_TICKETS, 0, 0, 0};
    if (!n) {
        if (want == 0) *out = (KMove){MV_PASS, 0, 0, 0};
        n = 1;
    }
    return n;
}

int rs_legal_walk(const KGame *g, const KTables *t, int want, KMove *out) {
    Walk w;
    walk_init(&w, g, t);
    return walk(g, t, want, out, &w);
}

/* ------------------------------------------------------------------ applying a move */
static void apply_split(KGame *g, const KTables *t, int trains) {
    int p = g->cur, nxt = (p + 1) % g->n;
    g->choice[p] = trains;
    if (nxt != g->first) {
        g->cur = nxt;
        g->phase = PH_PIECES;
        return;
    }
    for (int q = 0; q < g->n; q++) { /* every seat has chosen: revealed together (B4) */
        int c = g->choice[q];
        g->pieces[q] = c;
        g->ships[q] = t->total_pieces - c;
        g->tbox[q] = t->train_max - c;
        g->sbox[q] = t->ship_max - (t->total_pieces - c);
    }
    kg_start_play(g, t);
}

static void apply_exchange(KGame *g, const KTables *t, const KMove *m) {
    int p = g->cur, k = m->b, stuck = only_exchanges(g, t);
    if (m->a == 0) { /* trains from the box, ships back */
        g->pieces[p] += k, g->ships[p] -= k;
        g->tbox[p] -= k, g->sbox[p] += k;
    } else {
        g->ships[p] += k, g->pieces[p] -= k;
        g->tbox[p] += k, g->sbox[p] -= k;
    }
    g->exchanged[p] += k;
    g->scores[p] -= k;
    /* [rec] a turn on which nothing but an exchange was possible, still leaving no claim, counts as a pass */
    if (stuck && !any_claim(g, t, p))
        g->passes++;
    else
        g->passes = 0;
    kg_end_turn(g, t);
}

void rs_apply(KGame *g, const KTables *t, const KMove *m) {
    int p = g->cur;
    switch (m->kind) {
        case MV_CLAIM:
            rs_pay(g, t, m);
            kg_complete_claim(g, t, m->a);
            break;
        case MV_HARBOR:
            g->harbors[p][g->nharbors[p]++] = m->a;
            g->harbor_at[m->a] = p;
            rs_pay(g, t, m);
            kg_action_done(g, t);
            break;
        case MV_PIECES:
            apply_split(g, t, m->a);
            break;
        default: /* MV_EXCHANGE */
            apply_exchange(g, t, m);
    }
}

/* ------------------------------------------------------------------ the random bot */
int rs_random_choose(KRandom *r, const KGame *g, const KTables *t, KMove *out) {
    Walk w; /* the claims counted once: the count, then the move it draws */
    walk_init(&w, g, t);
    if (g->phase == PH_TURN) {
        if (r->claims != g->claims) kr_follow(r, g, t);
        w.open = r->open[g->cur];
    }
    int n = walk(g, t, -1, NULL, &w);
    if (n <= 0) return -1;
    int want = (int)mt_below(&r->mt[g->cur], (uint32_t)n);
    return walk(g, t, want, out, &w) > 0 ? 0 : -1;
}
