/* The cheapest path between two cities with per-route costs (Dijkstra on a binary heap), as the
 * playout policy's _path finds it (ttr_lab/bots/playout/tables.py): the same ties, the same
 * routes.  Used by the plan, the ticket choice and the tables' paths on the empty board.
 */
#include "_kernel.h"

/* A binary heap of (distance, city), smallest first, as Python's heapq orders the tuples. */
typedef struct {
    int d[2 * KT_MAX_ROUTES + 2], u[2 * KT_MAX_ROUTES + 2];
    int n;
} Heap;

static int less(const Heap *h, int i, int j) { return h->d[i] < h->d[j] || (h->d[i] == h->d[j] && h->u[i] < h->u[j]); }

static void swap(Heap *h, int i, int j) {
    int d = h->d[i], u = h->u[i];
    h->d[i] = h->d[j];
    h->u[i] = h->u[j];
    h->d[j] = d;
    h->u[j] = u;
}

static void heap_push(Heap *h, int d, int u) {
    int i = h->n++;
    h->d[i] = d;
    h->u[i] = u;
    while (i > 0 && less(h, i, (i - 1) / 2)) {
        swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void heap_pop(Heap *h, int *d, int *u) {
    *d = h->d[0];
    *u = h->u[0];
    h->n--;
    h->d[0] = h->d[h->n];
    h->u[0] = h->u[h->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && less(h, l, m)) m = l;
        if (r < h->n && less(h, r, m)) m = r;
        if (m == i) break;
        swap(h, i, m);
        i = m;
    }
}

/* The cheapest a-b path with per-route costs (negative: closed), as the
 * playout policy's _path finds it: returns the cost (KT_INF if none) and
 * the routes from b back to a in out (at most ncities - 1 of them). */
int kt_path(const KTables *t, const int *cost, int a, int b, int *out, int *nout) {
    int dist[KT_MAX_CITIES], back_u[KT_MAX_CITIES], back_r[KT_MAX_CITIES];
    Heap h;
    for (int i = 0; i < t->ncities; i++) dist[i] = KT_INF;
    dist[a] = 0;
    h.n = 0;
    heap_push(&h, 0, a);
    *nout = 0;
    while (h.n) {
        int d, u;
        heap_pop(&h, &d, &u);
        if (u == b) {
            int k = 0;
            while (u != a) {
                out[k++] = back_r[u];
                u = back_u[u];
            }
            *nout = k;
            return d;
        }
        if (d > dist[u]) continue;
        for (int e = t->adj_start[u]; e < t->adj_start[u + 1]; e++) {
            int v = t->adj_city[e], ri = t->adj_route[e], c = cost[ri];
            if (c >= 0 && d + c < dist[v]) {
                dist[v] = d + c;
                back_u[v] = u;
                back_r[v] = ri;
                if (h.n < (int)(sizeof h.d / sizeof h.d[0])) heap_push(&h, d + c, v);
            }
        }
    }
    return KT_INF;
}
