/* Final scoring of the USA family, as ttr_lab.engine.scoring.outcome computes it:
 * route points, each kept ticket joined or not (A7), the exact longest
 * trail (each route once, cities any number of times), the Longest Path and
 * Globetrotter bonuses (every tied player scores them) and the winners
 * after the tie-breakers (B1, B2: completed tickets, then the Longest Path
 * card, or the path's length, or a shared win).  Europe (B3): the tickets
 * over the routes the stations borrow (_stations.c), 4 points per station
 * left, the European Express over own routes only, and the tie-breakers
 * completed tickets, then fewest stations built, then the European Express.
 * Rails & Sails (B4): tickets, tours, harbors and exchanges (_rs_score.c), no
 * bonus; a tie is a shared win, or broken by completed tickets (option tiebreak).
 */
#include <string.h>

#include "_kernel.h"

static int find(int *up, int x) {
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

/* ------------------------------------------------------------------ the longest trail */
typedef struct {
    int m;                  /* edges */
    int ea[KT_MAX_ROUTES], eb[KT_MAX_ROUTES], ew[KT_MAX_ROUTES];
    int deg[KT_MAX_CITIES];
    int inc[KT_MAX_CITIES][KT_MAX_ROUTES > 64 ? 64 : KT_MAX_ROUTES]; /* edges at a city */
    int ninc[KT_MAX_CITIES];
    unsigned char used[KT_MAX_ROUTES];
    int best;
} Trail;

static void dfs(Trail *tr, int v, int len, int rest) {
    if (len > tr->best) tr->best = len;
    if (len + rest <= tr->best) return;
    for (int i = 0; i < tr->ninc[v]; i++) {
        int e = tr->inc[v][i];
        if (tr->used[e]) continue;
        tr->used[e] = 1;
        dfs(tr, tr->ea[e] == v ? tr->eb[e] : tr->ea[e], len + tr->ew[e], rest - tr->ew[e]);
        tr->used[e] = 0;
    }
}

/* The longest trail of the routes a seat owns: each component with at most
 * two odd cities is one Euler trail; otherwise a longest trail joins two odd
 * cities (a trail ending elsewhere could go on), so a search from each odd
 * city, pruned by the routes left, finds it. */
static int longest_trail(const KGame *g, const KTables *t, int p, Trail *tr) {
    int up[KT_MAX_CITIES], total[KT_MAX_CITIES], odd[KT_MAX_CITIES];
    memset(tr->ninc, 0, sizeof(int) * (size_t)t->ncities);
    tr->m = 0;
    for (int c = 0; c < t->ncities; c++) {
        up[c] = c;
        total[c] = odd[c] = 0;
    }
    for (int ri = 0; ri < t->nroutes; ri++) {
        if (g->owners[ri] != p) continue;
        int e = tr->m++, a = t->ra[ri], b = t->rb[ri];
        tr->ea[e] = a;
        tr->eb[e] = b;
        tr->ew[e] = t->rlen[ri];
        tr->used[e] = 0;
        if (tr->ninc[a] < 64) tr->inc[a][tr->ninc[a]++] = e;
        if (tr->ninc[b] < 64) tr->inc[b][tr->ninc[b]++] = e;
        up[find(up, a)] = find(up, b);
    }
    for (int e = 0; e < tr->m; e++) total[find(up, tr->ea[e])] += tr->ew[e];
    for (int c = 0; c < t->ncities; c++)
        if (tr->ninc[c] & 1) odd[find(up, c)]++;
    tr->best = 0;
    for (;;) { /* components, biggest first; stop when none can beat the best */
        int root = -1;
        for (int c = 0; c < t->ncities; c++)
            if (up[c] == c && total[c] > tr->best && (root < 0 || total[c] > total[root])) root = c;
        if (root < 0) break;
        if (odd[root] <= 2) {
            tr->best = total[root];
        } else {
            for (int c = 0; c < t->ncities; c++)
                if ((tr->ninc[c] & 1) && find(up, c) == root) dfs(tr, c, 0, total[root]);
        }
        total[root] = 0;
    }
    return tr->best;
}

/* ------------------------------------------------------------------ the outcome */
void kg_score(const KGame *g, const KTables *t, KScore *out) {
    int n = g->n, lp_best = 0, most = 0;
    Trail tr;
    int need_path = t->lp_bonus || t->tiebreak_path;
    memset(out, 0, sizeof *out);
    for (int p = 0; p < n; p++) {
        int up[KT_MAX_CITIES], pts = 0;
        for (int c = 0; c < t->ncities; c++) up[c] = c;
        for (int ri = 0; ri < t->nroutes; ri++)
            if (g->owners[ri] == p) {
                pts += t->points[t->rlen[ri]];
                up[find(up, t->ra[ri])] = find(up, t->rb[ri]);
            }
        if (t->family == KF_EUROPE) {
            unsigned char done[KT_MAX_TICKETS];
            pts += ke_borrow(g, t, p, up, done, &out->completed[p]);
            for (int i = 0; i < g->ntickets[p]; i++)
                if (done[i]) out->ticket_done[p][i / 64] |= (uint64_t)1 << (i % 64);
            pts += (t->stations_max - g->nstations[p]) * t->station_points;
        } else if (t->family == KF_RS) { /* tickets and tours, harbors, exchanges (_rs_score.c) */
            unsigned char done[KT_MAX_TICKETS];
            pts += krs_seat(g, t, p, up, done, NULL, &out->completed[p]);
            for (int i = 0; i < g->ntickets[p]; i++)
                if (done[i]) out->ticket_done[p][i / 64] |= (uint64_t)1 << (i % 64);
        } else {
            for (int i = 0; i < g->ntickets[p]; i++) {
                int ti = g->tickets[p][i];
                if (find(up, t->ta[ti]) == find(up, t->tb[ti])) {
                    pts += t->tpoints[ti];
                    out->completed[p]++;
                    out->ticket_done[p][i / 64] |= (uint64_t)1 << (i % 64);
                } else {
                    pts -= t->tpenalty[ti];
                }
            }
        }
        out->total[p] = pts;
        out->longest[p] = need_path ? longest_trail(g, t, p, &tr) : 0;
        if (out->longest[p] > lp_best) lp_best = out->longest[p];
        if (out->completed[p] > most) most = out->completed[p];
    }
    for (int p = 0; p < n; p++) {
        if (t->lp_bonus && lp_best > 0 && out->longest[p] == lp_best) out->total[p] += t->lp_bonus;
        if (t->gt_bonus && most > 0 && out->completed[p] == most) out->total[p] += t->gt_bonus;
    }
    /* the winners: the best (total, tickets, then the card or the path) */
    int key[KT_MAX_PLAYERS][4];
    for (int p = 0; p < n; p++) {
        key[p][0] = out->total[p];
        key[p][1] = t->family == KF_RS && !t->tiebreak_tickets ? 0 : out->completed[p]; /* B4: a shared win */
        key[p][2] = t->family == KF_EUROPE ? -g->nstations[p] : 0; /* fewest stations built (B3) */
        if (t->lp_bonus)
            key[p][3] = lp_best > 0 && out->longest[p] == lp_best;
        else
            key[p][3] = t->tiebreak_path ? out->longest[p] : 0;
    }
    int best = 0;
    for (int p = 1; p < n; p++)
        for (int k = 0; k < 4; k++) {
            if (key[p][k] != key[best][k]) {
                if (key[p][k] > key[best][k]) best = p;
                break;
            }
        }
    for (int p = 0; p < n; p++)
        if (!memcmp(key[p], key[best], sizeof key[p])) out->winners |= 1 << p;
}
