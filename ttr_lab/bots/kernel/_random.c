/* The random bot (ttr_lab/bots/simple.py RandomBot): uniformly random among the legal moves,
 * drawn from the seat's own random.Random (MT19937, _rng.c), so a simulated game is the same
 * game in Python and here.
 */
#include <string.h>

#include "_kernel.h"

/* The bot draws an index below the number of legal moves and plays that move: the same count and
 * the same order as legal_walk, but the claims counted from each seat's open routes by colour and
 * length (kept up to date claim by claim), and walked only over the open routes. */
static void kr_count(KRandom *r, const KTables *t, int p, int ri, int d) {
    int L = t->rlen[ri], k = t->rcolor[ri];
    if (t->minw[ri]) return; /* a ferry: counted apart (kr_claims) */
    r->routes[p][L] += d;
    if (k >= 0)
        r->payable[p][L][k] += (int16_t)d;
    else
        for (int c = 0; c < t->wild; c++) r->payable[p][L][c] += (int16_t)d;
}

static void kr_close(KRandom *r, const KTables *t, int p, int ri) {
    uint64_t bit = (uint64_t)1 << (ri & 63);
    if (!(r->open[p][ri >> 6] & bit)) return;
    r->open[p][ri >> 6] &= ~bit;
    kr_count(r, t, p, ri, -1);
}

void kr_follow(KRandom *r, const KGame *g, const KTables *t) {
    const int n = g->n;
    if (r->claims >= 0 && r->claims == g->claims - 1) { /* one route claimed: closed, and maybe its double */
        int ri = g->last_claim, q = g->owners[ri], pr = t->partner[ri], few = n < t->double_min;
        for (int p = 0; p < n; p++) {
            kr_close(r, t, p, ri);
            if (pr >= 0 && (few || p == q)) kr_close(r, t, p, pr);
        }
    } else {
        memset(r->open, 0, sizeof r->open);
        memset(r->routes, 0, sizeof r->routes);
        memset(r->payable, 0, sizeof r->payable);
        for (int ri = 0; ri < t->nroutes; ri++)
            for (int p = 0; p < n; p++)
                if (kg_route_open_to(g, t, ri, p)) {
                    r->open[p][ri >> 6] |= (uint64_t)1 << (ri & 63);
                    kr_count(r, t, p, ri, 1);
                }
    }
    r->claims = g->claims;
}

/* the claims open to the seat to move, as pay_count counts them: per length, each colour's
 * ways times the open routes it can pay (its colour and gray), and the open routes once more
 * if W >= L (16-bit lanes over the colours; no colour pays a route in more than 9 ways) */
static int kr_claims(const KRandom *r, const KGame *g, const KTables *t) {
    const int me = g->cur, *hand = g->hands[me], W = hand[t->wild];
    const int top = t->maxlen < g->pieces[me] ? t->maxlen : g->pieces[me];
    int16_t c[KT_MAX_CARD_TYPES] = {0};
    for (int ci = 0; ci < t->wild; ci++) c[ci] = (int16_t)hand[ci];
    int total = 0;
    for (int L = 1; L <= top; L++) {
        const int16_t *m = r->payable[me][L], A = (int16_t)(W + 1 < L ? W + 1 : L), d = (int16_t)(A - L);
        int sum = 0;
        for (int ci = 0; ci < KT_MAX_CARD_TYPES; ci++) {
            int16_t k = (int16_t)(c[ci] + d);
            k = k < A ? k : A;
            k = k > 0 ? k : 0;
            sum += k * m[ci];
        }
        total += sum + (W >= L ? r->routes[me][L] : 0);
    }
    for (int i = 0; i < t->nferry; i++) { /* ferries: their locomotives first */
        int ri = t->ferry[i];
        if (t->rlen[ri] <= top && r->open[me][ri >> 6] >> (ri & 63) & 1)
            total += kg_pay_count(t, hand, t->rlen[ri], t->rcolor[ri], t->minw[ri]);
    }
    return total;
}

int kr_choose(KRandom *r, const KGame *g, const KTables *t, KMove *out) {
    KMove draws[KT_MAX_ROW + 2];
    if (g->phase == PH_TUNNEL) { /* a tunnel: its payments, declining */
        KMove tm[KT_MAX_LENGTH + 2];
        int n = ke_tunnel_moves(g, t, tm);
        *out = tm[mt_below(&r->mt[g->cur], (uint32_t)n)];
        return 0;
    }
    if (g->phase == PH_SETUP || g->phase == PH_KEEP) { /* ticket choices: the keeps, listed once */
        int masks[1 << KT_MAX_PENDING], n = kg_keeps(g, t, masks);
        if (n <= 0) return -1;
        *out = (KMove){MV_KEEP, masks[mt_below(&r->mt[g->cur], (uint32_t)n)], 0, 0};
        return 0;
    }
    if (t->family == KF_RS) return rs_random_choose(r, g, t, out); /* Rails & Sails: _rs_engine.c */
    if (g->phase == PH_SECOND) { /* second picks: no claims */
        int n = kg_draws_list(g, t, draws);
        if (n <= 0) return -1;
        *out = draws[mt_below(&r->mt[g->cur], (uint32_t)n)];
        return 0;
    }
    if (g->phase != PH_TURN) return -1;
    if (r->claims != g->claims) kr_follow(r, g, t);
    const int me = g->cur, *hand = g->hands[me];
    PayLen pl[KT_MAX_LENGTH + 1];
    int ndraws = kg_draws_list(g, t, draws), claims = kr_claims(r, g, t);
    int nst = t->stations_max ? ke_station_cities(g, t) * ke_station_ways(g, t) : 0;
    int n = ndraws + claims + nst + (g->ntdeck > 0);
    if (!n) {
        *out = (KMove){MV_PASS, 0, 0, 0};
        mt_below(&r->mt[me], 1); /* the bot draws from its one move too */
        return 0;
    }
    int want = (int)mt_below(&r->mt[me], (uint32_t)n);
    if (want < ndraws) {
        *out = draws[want];
        return 0;
    }
    want -= ndraws;
    if (want >= claims + nst) {
        *out = (KMove){MV_TICKETS, 0, 0, 0};
        return 0;
    }
    if (want >= claims) return ke_station_move(g, t, want - claims, out);
    kg_pay_lengths(t, hand, g->pieces[me], pl);
    for (int w = 0; w < (t->nroutes + 63) / 64; w++)
        for (uint64_t bits = r->open[me][w]; bits; bits &= bits - 1) {
            int ri = 64 * w + KT_CTZ64(bits), k = kg_route_pays(t, pl, hand, ri);
            if (want < k) {
                KMove pays[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
                kg_payments(t, hand, ri, pays);
                *out = pays[want];
                return 0;
            }
            want -= k;
        }
    return -1; /* cannot happen: the counts and the sets agree */
}
