/* The playout policy (ttr_lab/bots/playout/: __init__.py, plan.py, tables.py,
 * tickets.py) for the USA family and Europe, decision for decision (a tunnel
 * by Europe's default_choice; the policy builds no station there; Rails &
 * Sails' turns, draws and split are _rs_policy.c's, its tickets this file's,
 * a tour planned leg after leg): the same
 * plan kept across plies and checked only when the scores change, the same
 * claims, draws and ticket choices, the same ties, the same floating-point
 * expressions (built without contraction: -ffp-contract=off).  Each bot
 * reads only what its seat's view shows: its hand and tickets, the public
 * board, the counts of the piles.  Its splitmix64 generator is drawn only
 * where the Python policy draws (never in this family).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"
#include "_policy.h"

int kp_work_init(KPolicyWork *w, const KTables *t, const KGame *g, const uint64_t *seeds) {
    /* a seat holds at most the tickets it has and those still to be dealt or drawn; each
     * one's path is at most ncities - 1 routes */
    int n = g->n, more = g->npending + g->ntdeck, most = 0;
    if (n < 1 || n > KT_MAX_PLAYERS) return -1;
    for (int p = 0; p < n; p++)
        if (g->has_setup && g->nsetup[p] > most) most = g->nsetup[p];
    int held = 0;
    for (int p = 0; p < n; p++)
        if (g->ntickets[p] > held) held = g->ntickets[p];
    int legs = 1; /* a tour's path is one path per leg */
    for (int i = 0; t->family == KF_RS && i < t->nticket; i++)
        if (t->tncity[i] - 1 > legs) legs = t->tncity[i] - 1;
    int cap = (held + more + most + 1) * t->ncities * legs;
    w->bots = calloc((size_t)n, sizeof(KBot));
    w->pool = malloc(sizeof(int) * (size_t)n * (2 * (size_t)t->nticket + 2 * (size_t)cap));
    if (!w->bots || !w->pool) {
        kp_work_free(w);
        return -1;
    }
    int *mem = w->pool;
    for (int p = 0; p < n; p++) {
        KBot *b = &w->bots[p];
        b->rng = seeds[p];
        b->stale = 1;
        for (int i = 0; i < KT_MAX_ROUTES; i++) b->alt[i] = -1;
        b->path_off = mem;
        b->path_n = mem + t->nticket;
        b->pool[0] = mem + 2 * t->nticket;
        b->pool[1] = b->pool[0] + cap;
        b->cap = cap;
        mem += 2 * t->nticket + 2 * cap;
        for (int i = 0; i < t->nticket; i++) b->path_n[i] = -1;
    }
    return 0;
}

void kp_work_free(KPolicyWork *w) {
    free(w->bots);
    free(w->pool);
    w->bots = NULL;
    w->pool = NULL;
}

/* ------------------------------------------------------------------ cards (playout/tables.py) */
static void hand_have(const KTables *t, const int *h, int *have) {
    memset(have, 0, sizeof(int) * NKEYS);
    for (int c = 0; c < t->wild; c++) have[c] = h[c];
}

static int affordable(const KTables *t, const int *have, int W, int ri) {
    int L = t->rlen[ri];
    if (t->minw[ri] > W) return 0; /* a ferry's locomotives */
    if (t->rcolor[ri] >= 0) return have[t->rcolor[ri]] + W >= L;
    if (W >= L) return 1;
    for (int c = 0; c < t->wild; c++)
        if (have[c] > 0 && have[c] + W >= L) return 1;
    return 0;
}

/* the claim with the fewest wilds, first in the engine's order; with surplus,
 * only payments without wilds within it */
static int cheapest_payment(const KGame *g, const KTables *t, int ri, const int *surplus, KMove *out) {
    KMove pays[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
    int n = kg_payments(t, g->hands[g->cur], ri, pays), best = -1, best_w = 0;
    for (int i = 0; i < n; i++) {
        int w = t->rlen[ri] - pays[i].c;
        if (surplus && (w || pays[i].b < 0 || surplus[pays[i].b] < pays[i].c)) continue;
        if (best < 0 || w < best_w) {
            best = i;
            best_w = w;
        }
    }
    if (best < 0) return 0;
    *out = pays[best];
    return 1;
}

/* ------------------------------------------------------------------ decisions (playout.py) */
static int goal(KBot *b, const KGame *g, const KTables *t, const int *have, int me, int *out) {
    double score[60];
    int ri_of[60], ns = 0, W = g->hands[me][t->wild];
    int lim = t->nroutes < 60 ? t->nroutes : 60;
    for (int i = 0; i < lim; i++) {
        int ri = t->by_length[i], L = t->rlen[ri];
        if (b->trains < L || L < 3) continue;
        if (g->owners[ri] >= 0 || !kg_route_open_to(g, t, ri, me)) continue;
        int held = 0;
        if (t->rcolor[ri] < 0) {
            for (int c = 0; c < t->wild; c++)
                if (have[c] > 0 && have[c] > held) held = have[c];
        } else {
            held = have[t->rcolor[ri]];
        }
        int m = L < held + W ? L : held + W;
        double s = -((double)m / L) - (double)L / 10;
        int j = ns++; /* insertion by (score, route) */
        while (j > 0 && (score[j - 1] > s || (score[j - 1] == s && ri_of[j - 1] > ri))) {
            score[j] = score[j - 1];
            ri_of[j] = ri_of[j - 1];
            j--;
        }
        score[j] = s;
        ri_of[j] = ri;
    }
    int k = 0;
    for (int i = 0; i < ns && k < 2; i++)
        if (!k || t->rcolor[ri_of[i]] != t->rcolor[out[0]]) out[k++] = ri_of[i];
    return k;
}

static int points(KBot *b, const KGame *g, const KTables *t, const int *have0, int W, int trains, const int *need,
                  int shortest, KMove *out) {
    int me = g->cur, sur[NKEYS];
    const int *have = have0, *surplus = NULL;
    unsigned char planned[KT_MAX_ROUTES] = {0};
    if (need) {
        for (int k = 0; k < NKEYS; k++) sur[k] = have0[k] > need[k] ? have0[k] - need[k] : 0;
        have = surplus = sur;
        W = 0;
    }
    for (int i = 0; i < b->nplan; i++) planned[b->plan[i]] = 1;
    for (int i = 0; i < t->nroutes; i++) {
        int ri = t->by_length[i], L = t->rlen[ri];
        if (trains < L || planned[ri] || !affordable(t, have, W, ri)) continue;
        if (shortest > L) return 0;
        if (g->owners[ri] >= 0 || !kg_route_open_to(g, t, ri, me)) continue;
        if (cheapest_payment(g, t, ri, surplus, out)) return 1;
    }
    return 0;
}

static int draw(KBot *b, const KGame *g, const KTables *t, const int *have, int second, KMove *out) {
    int need[NKEYS], lack[NKEYS], nlack = 0, sumlack = 0, me = g->cur;
    if (b->done) {
        if (!b->has_goal_sig || memcmp(b->goal_sig, b->sig, sizeof(int) * (size_t)g->n)) {
            memcpy(b->goal_sig, b->sig, sizeof b->goal_sig);
            b->has_goal_sig = 1;
            b->ngoal = goal(b, g, t, have, me, b->goal);
        }
        kp_needs(b, t, have, b->goal, b->ngoal, need);
    } else {
        kp_needs(b, t, have, b->plan, b->nplan, need);
    }
    for (int k = 0; k < NKEYS; k++) {
        lack[k] = need[k] > have[k] ? need[k] - have[k] : 0;
        if (lack[k]) {
            nlack++;
            sumlack += lack[k];
        }
    }
    int best_want = 0, best_slot = 0, wild_slot = 0;
    for (int i = 0; i < t->row_size; i++) {
        int c = g->row[i];
        if (c < 0) continue;
        if (c == t->wild) {
            if (!wild_slot) wild_slot = i + 1;
            continue;
        }
        int want = lack[c] ? lack[c] : lack[ANY] ? 1 : 0;
        if (want && (!best_slot || want > best_want)) {
            best_want = want;
            best_slot = i + 1;
        }
    }
    if (best_slot) {
        *out = (KMove){MV_FACEUP, best_slot, 0, 0};
        return 0;
    }
    if (!second && wild_slot && nlack > 0 && nlack <= 3 && sumlack >= 2) {
        *out = (KMove){MV_FACEUP, wild_slot, 0, 0};
        return 0;
    }
    if (kg_any_cards(g, t)) {
        *out = (KMove){MV_BLIND, 0, 0, 0};
        return 0;
    }
    for (int i = 0; i < t->row_size; i++) { /* the legal moves: the first face-up card, stopping, the first move */
        int c = g->row[i];
        if (c >= 0 && !(second && c == t->wild)) {
            *out = (KMove){MV_FACEUP, i + 1, 0, 0};
            return 0;
        }
    }
    if (second && t->single_draw) return -1; /* no card to take: the engine lists no move (Python fails too) */
    return kg_first_legal(g, t, out);
}

static int turn(KBot *b, const KGame *g, const KTables *t, KMove *out) {
    int me = g->cur, have[NKEYS], need[NKEYS];
    const int *h = g->hands[me];
    int W = h[t->wild], trains = b->trains;
    hand_have(t, h, have);
    for (int i = 0; i < b->nplan; i++) {
        int ri = b->plan[i];
        if (trains < t->rlen[ri]) continue;
        int sides[2] = {ri, b->alt[ri]};
        for (int s = 0; s < 2; s++)
            if (sides[s] >= 0 && affordable(t, have, W, sides[s]) && cheapest_payment(g, t, sides[s], NULL, out))
                return 0;
    }
    int left = g->final_, lowest = b->lowest, end = t->end_threshold;
    int ending = left >= 0 || lowest <= end + 2, hopeless = 0;
    if (ending && b->nplan) {
        kp_needs(b, t, have, b->plan, b->nplan, need);
        int lack = 0;
        for (int k = 0; k < NKEYS; k++)
            if (need[k] > have[k]) lack += need[k] - have[k];
        int turns = b->nplan + (lack + 1) / 2;
        int mine_left = left < 0 ? KT_INF : (left + g->n - 1) / g->n;
        hopeless = turns > mine_left || (lowest <= end + 2 && turns > 3);
    }
    if (hopeless || (b->done && ending)) {
        if (points(b, g, t, have, W, trains, NULL, 1, out)) return 0;
    } else if (b->done) {
        if (lowest > end + 13 && trains >= 18 && g->ntdeck) {
            *out = (KMove){MV_TICKETS, 0, 0, 0};
            return 0;
        }
        if (points(b, g, t, have, W, trains, NULL, trains < 4 ? trains : 4, out)) return 0;
        return draw(b, g, t, have, 0, out);
    } else {
        int total = 0;
        for (int c = 0; c < t->ncards; c++) total += h[c];
        if (total >= 24) {
            kp_needs(b, t, have, b->plan, b->nplan, need);
            int spare = trains;
            for (int i = 0; i < b->nplan; i++) spare -= t->rlen[b->plan[i]];
            if (points(b, g, t, have, W, spare, need, 3, out)) return 0;
        }
    }
    return draw(b, g, t, have, 0, out);
}

/* ------------------------------------------------------------------ tickets (playout/tickets.py) */
static double cars(const KTables *t, const int sets[][KT_MAX_ROUTES], const int *sizes, const int *inf, const int *ids,
                   int k) {
    unsigned char in[KT_MAX_ROUTES] = {0};
    int total = 0;
    for (int i = 0; i < k; i++) {
        if (inf[ids[i]]) return INFINITY;
        for (int j = 0; j < sizes[ids[i]]; j++)
            if (!in[sets[ids[i]][j]]) {
                in[sets[ids[i]][j]] = 1;
                total += t->rlen[sets[ids[i]][j]];
            }
    }
    return (double)total;
}

static int keep_choice(KBot *b, const KGame *g, const KTables *t, KMove *out) {
    int sets[KT_MAX_PENDING][KT_MAX_ROUTES], sizes[KT_MAX_PENDING], inf[KT_MAX_PENDING];
    int np = g->npending, me = g->cur, setup = g->phase == PH_SETUP;
    int need = (setup ? t->setup_keep : t->draw_keep) < np ? (setup ? t->setup_keep : t->draw_keep) : np;
    int pieces;
    if (setup) { /* each ticket's path (each leg's) on the empty board (none: no cars, as in Python) */
        pieces = t->pieces;
        for (int i = 0; i < np; i++) {
            unsigned char in[KT_MAX_ROUTES] = {0};
            kp_static_routes(t, g->pending[i], in);
            inf[i] = 0;
            sizes[i] = 0;
            for (int ri = 0; ri < t->nroutes; ri++)
                if (in[ri]) sets[i][sizes[i]++] = ri;
        }
    } else {
        int cost[KT_MAX_ROUTES], buf[KP_PATH_MAX], nr;
        kp_check(b, g, t, me);
        pieces = b->trains + b->ships;
        for (int i = 0; i < b->nplan; i++) pieces -= t->rlen[b->plan[i]];
        kp_costs(g, t, me, cost);
        for (int i = 0; i < b->nplan; i++) cost[b->plan[i]] = 0;
        for (int i = 0; i < np; i++) { /* the routes still to claim, as a set */
            unsigned char in[KT_MAX_ROUTES] = {0};
            int d = kp_ticket_path(t, cost, g->pending[i], buf, &nr);
            inf[i] = d >= KT_INF;
            sizes[i] = 0;
            for (int j = 0; !inf[i] && j < nr; j++)
                if (cost[buf[j]] > 0 && !in[buf[j]]) {
                    in[buf[j]] = 1;
                    sets[i][sizes[i]++] = buf[j];
                }
        }
    }
    /* the best set of `need` tickets: (value, ids) greatest */
    int ids_of[KT_MAX_PENDING], best[KT_MAX_PENDING], have_best = 0;
    double best_v = 0;
    for (int i = 0; i < np; i++) ids_of[i] = t->tid[g->pending[i]];
    for (int mask = 0; mask < 1 << np; mask++) {
        if (__builtin_popcount((unsigned)mask) != need) continue;
        int pos[KT_MAX_PENDING], k = 0, pts = 0;
        for (int i = 0; i < np; i++)
            if (mask >> i & 1) pos[k++] = i;
        for (int i = 1; i < k; i++) /* by id */
            for (int j = i; j > 0 && ids_of[pos[j]] < ids_of[pos[j - 1]]; j--) {
                int x = pos[j];
                pos[j] = pos[j - 1];
                pos[j - 1] = x;
            }
        for (int i = 0; i < k; i++) pts += t->tpoints[g->pending[pos[i]]];
        double c = cars(t, sets, sizes, inf, pos, k);
        double over = c - (setup ? 0.8 : 0.5) * pieces;
        double value = (double)pts - 0.6 * c - 3 * (over > 0.0 ? over : 0.0);
        int better = !have_best || value > best_v;
        if (have_best && value == best_v) {
            for (int i = 0; i < k; i++)
                if (ids_of[pos[i]] != ids_of[best[i]]) {
                    better = ids_of[pos[i]] > ids_of[best[i]];
                    break;
                }
        }
        if (better) {
            have_best = 1;
            best_v = value;
            memcpy(best, pos, sizeof(int) * (size_t)k);
        }
    }
    int chosen[KT_MAX_PENDING], nc = need, order[KT_MAX_PENDING];
    memcpy(chosen, best, sizeof(int) * (size_t)need);
    for (int i = 0; i < np; i++) { /* by value, most first (a stable sort) */
        int j = i;
        while (j > 0 && t->tpoints[g->pending[order[j - 1]]] < t->tpoints[g->pending[i]]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int oi = 0; oi < np; oi++) {
        int i = order[oi], in = 0;
        for (int j = 0; j < nc; j++) in |= chosen[j] == i;
        if (in) continue;
        double before = cars(t, sets, sizes, inf, chosen, nc);
        chosen[nc] = i;
        double after = cars(t, sets, sizes, inf, chosen, nc + 1);
        double extra = after - before;
        if (extra <= 3 + 0.2 * t->tpoints[g->pending[i]] && after <= 0.6 * pieces) nc++;
    }
    int mask = 0;
    for (int j = 0; j < nc; j++) mask |= 1 << chosen[j];
    *out = (KMove){MV_KEEP, mask, 0, 0};
    b->stale = 1;
    return 0;
}

/* ------------------------------------------------------------------ a decision */
int kp_choose(KPolicyWork *w, const KGame *g, const KTables *t, KMove *out) {
    KBot *b = &w->bots[g->cur];
    int me = g->cur;
    if (g->phase == PH_TURN || g->phase == PH_SECOND) {
        kp_check(b, g, t, me);
        if (t->family == KF_RS) return g->phase == PH_SECOND ? kp_rs_draw(b, g, t, 1, out) : kp_rs_turn(b, g, t, out);
        if (g->phase == PH_SECOND) {
            int have[NKEYS];
            hand_have(t, g->hands[me], have);
            return draw(b, g, t, have, 1, out);
        }
        return turn(b, g, t, out);
    }
    if (g->phase == PH_TUNNEL) { /* the edition's default_choice: pay with the fewest wilds, else decline */
        KMove tm[KT_MAX_LENGTH + 2];
        int n = ke_tunnel_moves(g, t, tm), best = n - 1;
        for (int i = 0; i < n - 1; i++)
            if (best == n - 1 || tm[i].b < tm[best].b) best = i;
        *out = tm[best];
        return 0;
    }
    if (g->phase == PH_PIECES && t->family == KF_RS) return kp_rs_split(g, t, out); /* split_choice */
    if (g->phase != PH_SETUP && g->phase != PH_KEEP) return -1;
    if (kg_legal_count(g, t) == 1) return kg_first_legal(g, t, out);
    return keep_choice(b, g, t, out);
}
