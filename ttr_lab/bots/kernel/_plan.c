/* The playout policy's plan (ttr_lab/bots/playout/plan.py), decision for decision: the routes of
 * a network joining the bot's tickets (each ticket's cheapest path with the routes planned or owned
 * free, the most valuable first; a path still open is kept), checked only when the scores change
 * and made again only when a planned route was taken or closed, or the tickets changed.
 */
#include <string.h>

#include "_kernel.h"
#include "_policy.h"

void kp_needs(const KBot *b, const KTables *t, const int *have, const int *routes, int nr, int *need) {
    int grays[KT_MAX_ROUTES], ng = 0;
    memset(need, 0, sizeof(int) * NKEYS);
    for (int i = 0; i < nr; i++) {
        int ri = routes[i], k = t->rcolor[ri];
        if (k < 0) {
            grays[ng++] = ri;
            continue;
        }
        int p = b->alt[ri];
        if (p >= 0 && t->rcolor[p] >= 0) {
            int k2 = t->rcolor[p];
            if (have[k2] - need[k2] > have[k] - need[k]) k = k2;
        }
        need[k] += t->rlen[ri];
    }
    for (int i = 0; i < ng; i++) {
        int best = ANY, most = 0;
        for (int c = 0; c < t->wild; c++)
            if (have[c] > 0 && have[c] - need[c] > most) {
                best = c;
                most = have[c] - need[c];
            }
        need[best] += t->rlen[grays[i]];
    }
}

/* PlayoutPlan._legs: a ticket's path, leg after leg (a tour's cities in order; a route of two
 * legs is listed twice and counted twice, as in Python) */
int kp_ticket_path(const KTables *t, const int *cost, int ti, int *out, int *nout) {
    if (t->family != KF_RS || t->tncity[ti] <= 2) return kt_path(t, cost, t->ta[ti], t->tb[ti], out, nout);
    int total = 0, n = 0;
    *nout = 0;
    for (int k = 0; k + 1 < t->tncity[ti]; k++) {
        int nr, d = kt_path(t, cost, t->tcity[ti][k], t->tcity[ti][k + 1], out + n, &nr);
        if (d >= KT_INF) {
            *nout = 0;
            return KT_INF;
        }
        total += d;
        n += nr;
    }
    *nout = n;
    return total;
}

/* the routes of a ticket's legs' cheapest paths on the empty board (tickets.py's static paths) */
void kp_static_routes(const KTables *t, int ti, unsigned char *in) {
    int legs = t->family == KF_RS ? t->tncity[ti] - 1 : 1;
    for (int k = 0; k < legs; k++) {
        int a = legs == 1 ? t->ta[ti] : t->tcity[ti][k], c = legs == 1 ? t->tb[ti] : t->tcity[ti][k + 1];
        int key = a * t->ncities + c;
        for (int j = 0; j < t->static_n[key]; j++) in[t->static_pool[t->static_off[key] + j]] = 1;
    }
}

void kp_costs(const KGame *g, const KTables *t, int me, int *cost) {
    for (int ri = 0; ri < t->nroutes; ri++) {
        int o = g->owners[ri];
        cost[ri] = o < 0 ? t->rlen[ri] : o == me ? 0 : -1;
    }
    int close = g->n < t->double_min;
    for (int ri = 0; ri < t->nroutes; ri++) { /* the edition's closed_routes: the free side of a claimed double */
        int o = g->owners[ri], p = t->partner[ri];
        if (o >= 0 && p >= 0 && (o == me || close) && g->owners[p] < 0) cost[p] = -1;
    }
}

static void alternates(KBot *b, const KGame *g, const KTables *t, int me) {
    for (int i = 0; i < t->nroutes; i++) b->alt[i] = -1;
    for (int i = 0; i < b->nplan; i++) {
        int ri = b->plan[i], p = t->partner[ri];
        if (p >= 0 && kg_route_open_to(g, t, p, me)) b->alt[ri] = p;
    }
}

static void sort_plan(KBot *b, const KTables *t) {
    for (int i = 1; i < b->nplan; i++)
        for (int j = i; j > 0; j--) {
            int x = b->plan[j], y = b->plan[j - 1];
            if (t->rlen[x] > t->rlen[y] || (t->rlen[x] == t->rlen[y] && x < y)) {
                b->plan[j] = y;
                b->plan[j - 1] = x;
            } else {
                break;
            }
        }
}

/* the seat's tickets by value, most first, then by id */
static int tickets_by_value(const KGame *g, const KTables *t, int me, int *out) {
    int n = g->ntickets[me];
    for (int i = 0; i < n; i++) {
        int x = g->tickets[me][i], j = i;
        while (j > 0 && (t->tpoints[out[j - 1]] < t->tpoints[x] ||
                         (t->tpoints[out[j - 1]] == t->tpoints[x] && t->tid[out[j - 1]] > t->tid[x]))) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return n;
}

static void replan(KBot *b, const KGame *g, const KTables *t, int me) {
    int cost[KT_MAX_ROUTES], order[KT_MAX_TICKETS], buf[KP_PATH_MAX];
    kp_costs(g, t, me, cost);
    int pieces = b->trains + b->ships, planned = 0, used = 0;
    int *pool = b->pool[1 - b->which], *old = b->pool[b->which];
    b->nplan = 0;
    int nt = tickets_by_value(g, t, me, order);
    for (int i = 0; i < nt; i++) {
        int ti = order[i], d = 0, nr = 0, ok = b->path_n[ti] >= 0;
        const int *routes = buf;
        if (ok) {
            routes = old + b->path_off[ti];
            nr = b->path_n[ti];
            for (int j = 0; j < nr; j++) {
                if (cost[routes[j]] < 0) ok = 0;
                d += cost[routes[j]];
            }
        }
        if (!ok) {
            d = kp_ticket_path(t, cost, ti, buf, &nr);
            routes = buf;
        }
        if (d >= KT_INF) {
            b->path_n[ti] = -1;
            continue;
        }
        if (used + nr > b->cap) nr = b->cap - used; /* cannot happen: cap holds every ticket's path */
        memcpy(pool + used, routes, sizeof(int) * (size_t)nr);
        b->path_off[ti] = used;
        b->path_n[ti] = nr;
        used += nr;
        if (0 < d && d <= pieces - planned)
            for (int j = 0; j < nr; j++) {
                int ri = pool[b->path_off[ti] + j];
                if (cost[ri] > 0) {
                    b->plan[b->nplan++] = ri;
                    planned += t->rlen[ri];
                    cost[ri] = 0;
                }
            }
    }
    b->which = 1 - b->which;
    sort_plan(b, t);
    b->done = !b->nplan;
    alternates(b, g, t, me);
}

/* keep the plan up to date (PlayoutPlan._check) */
void kp_check(KBot *b, const KGame *g, const KTables *t, int me) {
    int n = g->n, has_old = b->has_sig, old[KT_MAX_PLAYERS];
    if (has_old && !memcmp(b->sig, g->scores, sizeof(int) * (size_t)n) && !b->stale) return;
    memcpy(old, b->sig, sizeof old);
    memcpy(b->sig, g->scores, sizeof(int) * (size_t)n);
    b->has_sig = 1;
    b->touch_valid = 0; /* Rails & Sails: the harbor sites are looked at again (_touch = None) */
    int lengths = -1; /* bit mask of the lengths claimed, -1: unknown (look at everything) */
    if (has_old && !b->stale) {
        lengths = 0;
        for (int q = 0; q < n; q++) {
            int diff = g->scores[q] - old[q];
            if (!diff) continue;
            int L = diff > 0 && diff <= t->max_points ? t->inverse[diff] : 0;
            if (!L) {
                lengths = -1;
                break;
            }
            lengths |= 1 << L;
            b->pieces_of[q] -= L;
        }
    }
    if (lengths < 0) { /* view.pieces: trains and ships */
        for (int q = 0; q < n; q++) b->pieces_of[q] = g->pieces[q] + (t->family == KF_RS ? g->ships[q] : 0);
        b->has_pieces_of = 1;
    }
    if (lengths < 0 || g->scores[me] != old[me]) { /* _supply: Rails & Sails reads both kinds off the view */
        b->trains = t->family == KF_RS ? g->pieces[me] : b->pieces_of[me];
        b->ships = t->family == KF_RS ? g->ships[me] : 0;
    }
    b->lowest = KT_INF;
    for (int q = 0; q < n; q++)
        if (q != me && b->pieces_of[q] < b->lowest) b->lowest = b->pieces_of[q];
    if (b->stale) {
        b->stale = 0;
        replan(b, g, t, me);
        return;
    }
    int keep = 0, nplan = b->nplan;
    for (int i = 0; i < nplan; i++) {
        int ri = b->plan[i];
        if ((lengths < 0 || (lengths >> t->rlen[ri] & 1)) && !kg_route_open_to(g, t, ri, me)) {
            if (g->owners[ri] == me) continue; /* claimed it */
            replan(b, g, t, me);
            return;
        }
        b->plan[keep++] = ri;
    }
    int changed = keep != nplan, alt_hit = 0;
    b->nplan = keep;
    b->done = !keep;
    for (int i = 0; i < keep && lengths >= 0; i++)
        if (b->alt[b->plan[i]] >= 0 && (lengths >> t->rlen[b->plan[i]] & 1)) alt_hit = 1;
    if (changed || lengths < 0 || alt_hit) alternates(b, g, t, me);
}
