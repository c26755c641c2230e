/* Rails & Sails' final scoring (rule B4, resolutions C7 and C9), as
 * ttr_lab/editions/rails_sails/{tours,harbors,exchange}.py score it:
 *
 * - a two-city ticket: its points if its cities are joined by the seat's own
 *   routes, else minus its penalty (A7);
 * - a tour (three or more cities): its in-order value if the seat's network
 *   holds a way through the cities in the printed order, else its any-order
 *   value if they are all joined, else its failed value (C9).  "In order"
 *   is option tour_order: a trail (each route at most once, cities may
 *   repeat; the default), a simple path (no city twice) or a walk (routes
 *   reusable: joined is enough).  Other cities may lie between the tour's
 *   cities.  Like tours.tour_in_order, the search starts at the first city,
 *   counts the next tour city as soon as the way reaches it (greedy matching
 *   finds a subsequence whenever one exists), cuts dead ends holding no tour
 *   city, prunes a branch from which the next tour city is unreachable over
 *   the routes left, and remembers the states that failed;
 * - each harbor built: by the completed tickets (tours in or out of order)
 *   showing its city, harbor_points[min(n, 3)] (0 for none); minus
 *   harbor_penalty per harbor left unbuilt;
 * - minus a point per piece exchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"

#define UW (KT_MAX_ROUTES / 64) /* words of a set of routes */
#define CW (KT_MAX_CITIES / 64) /* words of a set of cities */

static int find(int *up, int x) {
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

/* ------------------------------------------------------------------ a seat's network */
typedef struct {
    int m;                                       /* the seat's routes (edges), in route order */
    int ea[KT_MAX_ROUTES], eb[KT_MAX_ROUTES];    /* their cities */
    int start[KT_MAX_CITIES + 1];                /* city -> its edges in inc[start[c] .. start[c + 1]) */
    int inc[2 * KT_MAX_ROUTES];
} RSNet;

static void net_build(const KGame *g, const KTables *t, int p, RSNet *net) {
    int deg[KT_MAX_CITIES + 1];
    memset(deg, 0, sizeof(int) * (size_t)(t->ncities + 1));
    net->m = 0;
    for (int ri = 0; ri < t->nroutes; ri++)
        if (g->owners[ri] == p) {
            int e = net->m++;
            net->ea[e] = t->ra[ri];
            net->eb[e] = t->rb[ri];
            deg[t->ra[ri]]++;
            deg[t->rb[ri]]++;
        }
    net->start[0] = 0;
    for (int c = 0; c < t->ncities; c++) net->start[c + 1] = net->start[c] + deg[c];
    for (int c = 0; c < t->ncities; c++) deg[c] = net->start[c];
    for (int e = 0; e < net->m; e++) {
        net->inc[deg[net->ea[e]]++] = e;
        if (net->eb[e] != net->ea[e]) net->inc[deg[net->eb[e]]++] = e;
    }
}

/* ------------------------------------------------------------------ a tour in order */
#define MEMO_BITS 12
#define MEMO_SIZE (1 << MEMO_BITS)
#define MEMO_PROBES 8
#define MEMO_AFTER 512 /* most searches end sooner: no memory asked */

typedef struct {
    uint64_t used[UW], visited[CW];
    int v, nxt, gen;
} MemoEntry;

typedef struct {
    const RSNet *net;
    const int *cities;
    int k, simple, uw;                   /* tour cities; no city twice; words of `used` in use */
    unsigned char alive[KT_MAX_ROUTES];  /* edges left after cutting dead ends */
    int bit[KT_MAX_ROUTES];              /* an alive edge's bit in `used` */
    uint64_t used[UW], visited[CW];
    int seen[KT_MAX_CITIES], stamp;      /* the reachability search's marks */
    int todo[KT_MAX_CITIES];
    MemoEntry *memo; /* failed states, allocated once a search has taken MEMO_AFTER steps (NULL: none yet) */
    int gen;         /* the tour searched: a memo entry of another tour is stale */
    long nodes;
} Search;

static uint64_t memo_hash(const Search *s, int v, int nxt) {
    uint64_t h = (uint64_t)v * 0x9e3779b97f4a7c15ULL ^ (uint64_t)nxt * 0xc2b2ae3d27d4eb4fULL;
    for (int i = 0; i < s->uw; i++) h = (h ^ s->used[i]) * 0xbf58476d1ce4e5b9ULL;
    if (s->simple)
        for (int i = 0; i < CW; i++) h = (h ^ s->visited[i]) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

static int memo_same(const Search *s, const MemoEntry *e, int v, int nxt) {
    return e->gen == s->gen && e->v == v && e->nxt == nxt && !memcmp(e->used, s->used, sizeof e->used) &&
           !memcmp(e->visited, s->visited, sizeof e->visited);
}

static int memo_has(const Search *s, int v, int nxt) {
    if (!s->memo) return 0;
    uint64_t h = memo_hash(s, v, nxt);
    for (int i = 0; i < MEMO_PROBES; i++) {
        const MemoEntry *e = &s->memo[(h + (uint64_t)i) & (MEMO_SIZE - 1)];
        if (e->gen != s->gen) return 0;
        if (memo_same(s, e, v, nxt)) return 1;
    }
    return 0;
}

static void memo_add(Search *s, int v, int nxt) { /* when the probes are full, the state is not remembered */
    if (!s->memo) return;
    uint64_t h = memo_hash(s, v, nxt);
    for (int i = 0; i < MEMO_PROBES; i++) {
        MemoEntry *e = &s->memo[(h + (uint64_t)i) & (MEMO_SIZE - 1)];
        if (e->gen == s->gen) continue;
        e->gen = s->gen;
        e->v = v;
        e->nxt = nxt;
        memcpy(e->used, s->used, sizeof e->used);
        memcpy(e->visited, s->visited, sizeof e->visited);
        return;
    }
}

/* whether goal is reachable from v over alive edges not used */
static int reachable(Search *s, int v, int goal) {
    const RSNet *net = s->net;
    int n = 0, mark = ++s->stamp;
    s->seen[v] = mark;
    s->todo[n++] = v;
    while (n) {
        int x = s->todo[--n];
        if (x == goal) return 1;
        for (int j = net->start[x]; j < net->start[x + 1]; j++) {
            int e = net->inc[j];
            if (!s->alive[e] || (s->used[s->bit[e] >> 6] >> (s->bit[e] & 63) & 1)) continue;
            int u = net->ea[e] == x ? net->eb[e] : net->ea[e];
            if (s->seen[u] != mark) {
                s->seen[u] = mark;
                s->todo[n++] = u;
            }
        }
    }
    return 0;
}

static int search(Search *s, int v, int nxt) {
    if (v == s->cities[nxt] && ++nxt == s->k) return 1;
    if (++s->nodes == MEMO_AFTER && !s->memo) s->memo = calloc(MEMO_SIZE, sizeof(MemoEntry)); /* NULL: slower, same answers */
    if (memo_has(s, v, nxt)) return 0;
    if (!reachable(s, v, s->cities[nxt])) {
        memo_add(s, v, nxt);
        return 0;
    }
    const RSNet *net = s->net;
    for (int j = net->start[v]; j < net->start[v + 1]; j++) {
        int e = net->inc[j], b = s->bit[e];
        if (!s->alive[e] || (s->used[b >> 6] >> (b & 63) & 1)) continue;
        int u = net->ea[e] == v ? net->eb[e] : net->ea[e];
        if (s->simple && (s->visited[u >> 6] >> (u & 63) & 1)) continue;
        s->used[b >> 6] |= (uint64_t)1 << (b & 63);
        if (s->simple) s->visited[u >> 6] |= (uint64_t)1 << (u & 63);
        int ok = search(s, u, nxt);
        s->used[b >> 6] &= ~((uint64_t)1 << (b & 63));
        if (s->simple) s->visited[u >> 6] &= ~((uint64_t)1 << (u & 63));
        if (ok) return 1;
    }
    memo_add(s, v, nxt);
    return 0;
}

/* Whether the network holds a trail (simple: a path) from cities[0] through
 * the cities in order; every city is known to be in one component with at least
 * one route (the caller checked), and k >= 2. */
static int in_order(const KTables *t, const RSNet *net, const int *cities, int k, int simple, int *up,
                    Search *s) {
    int deg[KT_MAX_CITIES], target[KT_MAX_CITIES], leaves[KT_MAX_CITIES], nl = 0;
    int root = find(up, cities[0]);
    s->net = net;
    s->cities = cities;
    s->k = k;
    s->simple = simple;
    memset(target, 0, sizeof(int) * (size_t)t->ncities);
    for (int i = 0; i < k; i++) target[cities[i]] = 1;
    /* the component's routes, with dead ends that hold no tour city cut off */
    for (int c = 0; c < t->ncities; c++) deg[c] = 0;
    for (int e = 0; e < net->m; e++) {
        s->alive[e] = find(up, net->ea[e]) == root;
        if (s->alive[e]) {
            deg[net->ea[e]]++;
            deg[net->eb[e]]++;
        }
    }
    for (int c = 0; c < t->ncities; c++)
        if (deg[c] == 1 && !target[c]) leaves[nl++] = c;
    while (nl) {
        int v = leaves[--nl];
        for (int j = net->start[v]; j < net->start[v + 1]; j++) {
            int e = net->inc[j];
            if (!s->alive[e]) continue;
            s->alive[e] = 0;
            int u = net->ea[e] == v ? net->eb[e] : net->ea[e];
            deg[v]--;
            deg[u]--;
            if (deg[u] == 1 && !target[u]) leaves[nl++] = u;
        }
    }
    int nb = 0;
    for (int e = 0; e < net->m; e++)
        if (s->alive[e]) s->bit[e] = nb++;
    s->uw = (nb + 63) / 64;
    memset(s->used, 0, sizeof s->used);
    memset(s->visited, 0, sizeof s->visited);
    s->gen++;
    int start = cities[0];
    if (simple) s->visited[start >> 6] |= (uint64_t)1 << (start & 63);
    return search(s, start, 0);
}

/* ------------------------------------------------------------------ a seat's score */
int krs_seat(const KGame *g, const KTables *t, int p, int *up, unsigned char *done, int *values, int *completed) {
    RSNet net;
    Search s;
    unsigned char ok[KT_MAX_TICKETS];
    int pts = 0, nt = g->ntickets[p], have_net = 0;
    *completed = 0;
    s.memo = NULL;
    s.nodes = 0;
    s.gen = 1;
    s.stamp = 0;
    for (int i = 0; i < nt; i++) {
        int ti = g->tickets[p][i], k = t->tncity[ti], v;
        const int *cities = t->tcity[ti];
        int root = find(up, cities[0]), joined = 1;
        for (int j = 1; j < k && joined; j++) joined = find(up, cities[j]) == root;
        if (k <= 2) { /* two cities (A7) */
            ok[i] = (unsigned char)joined;
            v = joined ? t->tpoints[ti] : -t->tpenalty[ti];
        } else {
            if (!have_net) {
                net_build(g, t, p, &net);
                memset(s.seen, 0, sizeof(int) * (size_t)t->ncities);
                have_net = 1;
            }
            /* all joined, the first city on a route of the seat's (tours.score_tour) */
            joined = joined && net.start[cities[0] + 1] > net.start[cities[0]];
            ok[i] = (unsigned char)joined;
            if (!joined)
                v = t->tfailed[ti];
            else if (t->tour_order == KO_WALK || in_order(t, &net, cities, k, t->tour_order == KO_SIMPLE, up, &s))
                v = t->tpoints[ti];
            else
                v = t->tany[ti];
        }
        if (done) done[i] = ok[i];
        if (values) values[i] = v;
        *completed += ok[i];
        pts += v;
    }
    free(s.memo);
    /* harbors (B4): by the completed tickets showing the city */
    for (int h = 0; h < g->nharbors[p]; h++) {
        int city = g->harbors[p][h], n = 0;
        for (int i = 0; i < nt; i++) {
            if (!ok[i]) continue;
            int ti = g->tickets[p][i];
            for (int j = 0; j < t->tncity[ti]; j++)
                if (t->tcity[ti][j] == city) {
                    n++;
                    break;
                }
        }
        pts += n ? t->harbor_points[n < 3 ? n : 3] : 0;
    }
    pts -= (t->harbors_max - g->nharbors[p]) * t->harbor_penalty;
    return pts - g->exchanged[p];
}

int krs_ticket_values(const KGame *g, const KTables *t, int p, int *values) {
    int up[KT_MAX_CITIES], completed;
    for (int c = 0; c < t->ncities; c++) up[c] = c;
    for (int ri = 0; ri < t->nroutes; ri++)
        if (g->owners[ri] == p) up[find(up, t->ra[ri])] = find(up, t->rb[ri]);
    return krs_seat(g, t, p, up, NULL, values, &completed);
}
