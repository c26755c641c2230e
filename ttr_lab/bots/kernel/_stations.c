/* Europe's stations (rule B3, resolutions C11 and C12), as ttr_lab/editions/europe/stations.py
 * plays and scores them.
 *
 * The n-th station costs n cards of one colour (locomotives stand in), in a
 * city without a station; the moves come by city (by name), then by payment
 * (sorted as the engine sorts them: the payments of a gray route of length n).
 * At the end each station may borrow one opponent route at its city, the same
 * for all of its owner's tickets: every combination (none, or one route per
 * station, candidates reduced to the pairs of own-network components they join,
 * the lowest route id of each pair) is tried in itertools.product's order, and
 * the first giving the most ticket points, then the most completed tickets,
 * then the fewest routes borrowed wins (station_borrowing).
 */
#include <string.h>

#include "_kernel.h"

int ke_station_cities(const KGame *g, const KTables *t) {
    int built = 0;
    for (int p = 0; p < g->n; p++) built += g->nstations[p];
    return t->nscity - built;
}

int ke_station_ways(const KGame *g, const KTables *t) {
    const int *hand = g->hands[g->cur];
    int n = g->nstations[g->cur] + 1, total = 0;
    if (n > t->stations_max) return 0;
    for (int c = 0; c < t->ncards; c++) total += hand[c];
    if (total < n) return 0;
    return kg_pay_count(t, hand, n, -1, 0);
}

int ke_station_move(const KGame *g, const KTables *t, int i, KMove *out) {
    int ways = ke_station_ways(g, t), n = g->nstations[g->cur] + 1;
    if (ways <= 0 || i < 0) return -1;
    int want = i / ways, city = -1;
    for (int r = 0; r < t->nscity; r++)
        if (g->station_at[t->scity[r]] < 0 && !want--) {
            city = t->scity[r];
            break;
        }
    if (city < 0) return -1;
    KMove pays[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
    kg_pay_list(t, g->hands[g->cur], -1, n, -1, 0, pays);
    *out = (KMove){MV_STATION, city, pays[i % ways].b, pays[i % ways].c};
    return 0;
}

void ke_build_station(KGame *g, const KTables *t, const KMove *m) {
    int p = g->cur, n = ++g->nstations[p];
    g->stations[p][n - 1] = m->a;
    g->station_at[m->a] = p;
    kg_pay(g, t, m->b, m->c, n - m->c);
    kg_action_done(g, t);
}

/* ------------------------------------------------------------------ scoring: the borrowed routes */
static int find(int *up, int x) {
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

#define MAX_OPT 65 /* none, or one of a city's routes (at most 64) */

int ke_borrow(const KGame *g, const KTables *t, int p, int *up, unsigned char *done, int *completed) {
    int ns = g->nstations[p], nopt[KT_MAX_STATIONS], oa[KT_MAX_STATIONS][MAX_OPT], ob[KT_MAX_STATIONS][MAX_OPT];
    for (int s = 0; s < ns; s++) {
        int city = g->stations[p][s], k = 1;
        for (int e = t->adj_start[city]; e < t->adj_start[city + 1]; e++) { /* in route order: ids increase */
            int ri = t->adj_route[e], o = g->owners[ri];
            if (o < 0 || o == p) continue;
            int a = find(up, t->ra[ri]), b = find(up, t->rb[ri]), dup = 0;
            if (a == b) continue;
            for (int j = 1; j < k && !dup; j++) dup = (oa[s][j] == a && ob[s][j] == b) || (oa[s][j] == b && ob[s][j] == a);
            if (dup) continue; /* the pair has a lower route id already */
            oa[s][k] = a;
            ob[s][k] = b;
            k++;
        }
        nopt[s] = k;
    }
    int nt = g->ntickets[p], ea[KT_MAX_TICKETS], eb[KT_MAX_TICKETS];
    for (int i = 0; i < nt; i++) {
        ea[i] = find(up, t->ta[g->tickets[p][i]]);
        eb[i] = find(up, t->tb[g->tickets[p][i]]);
    }
    int par[KT_MAX_CITIES], pick[KT_MAX_STATIONS] = {0}, best[KT_MAX_STATIONS] = {0}, have = 0;
    int best_total = 0, best_joined = 0, best_used = 0;
    for (int c = 0; c < t->ncities; c++) par[c] = c;
    for (;;) {
        int touched[2 * KT_MAX_STATIONS], nt2 = 0, used = 0, total = 0, joined = 0;
        for (int s = 0; s < ns; s++)
            if (pick[s]) {
                used++;
                int a = find(par, oa[s][pick[s]]), b = find(par, ob[s][pick[s]]);
                if (a != b) {
                    par[a] = b;
                    touched[nt2++] = a;
                }
            }
        for (int i = 0; i < nt; i++) {
            int ok = find(par, ea[i]) == find(par, eb[i]), ti = g->tickets[p][i];
            total += ok ? t->tpoints[ti] : -t->tpenalty[ti];
            joined += ok;
        }
        if (!have || total > best_total || (total == best_total && (joined > best_joined ||
                                                                     (joined == best_joined && used < best_used)))) {
            have = 1;
            best_total = total;
            best_joined = joined;
            best_used = used;
            memcpy(best, pick, sizeof best);
        }
        for (int i = 0; i < nt2; i++) par[touched[i]] = touched[i];
        for (int s = 0; s < ns; s++) /* path halving may have moved other entries: reset all touched roots */
            if (pick[s]) {
                par[oa[s][pick[s]]] = oa[s][pick[s]];
                par[ob[s][pick[s]]] = ob[s][pick[s]];
            }
        int s = ns - 1; /* the next combination: the last station's choice moves fastest */
        while (s >= 0 && ++pick[s] == nopt[s]) pick[s--] = 0;
        if (s < 0) break;
    }
    for (int s = 0; s < ns; s++)
        if (best[s]) {
            int a = find(par, oa[s][best[s]]), b = find(par, ob[s][best[s]]);
            if (a != b) par[a] = b;
        }
    *completed = 0;
    for (int i = 0; i < nt; i++) {
        done[i] = find(par, ea[i]) == find(par, eb[i]);
        *completed += done[i];
    }
    return best_total;
}
