/* Rails & Sails' payments (rule B4, resolution C7), as ttr_lab/editions/rails_sails/ counts and
 * lists them: payments.py (_list_claims), counting.py (_train_count, _ship_count, _paired_counts)
 * and harbors.py (harbor_count, harbor_options).
 *
 * A payment is a move's b and c (see _kernel.h): per colour, 4 bits each, the first cards (plain
 * trains, single ships; a harbor's anchor trains) and the second (anchor trains, double ships; a
 * harbor's single ships), the wilds at c >> 24.  A route's (or a city's) payments are listed in
 * the engine's move order: by the move's cards, (name, count) pairs sorted by name and compared
 * as tuples; a payment's key is those pairs as bytes (the name's rank + 1, the count), so that
 * memcmp orders them (a shorter tuple first).
 */
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"

static int ways(int m, int a, int b) { /* x + y = m, 0 <= x <= a, 0 <= y <= b */
    int lo = m > b ? m - b : 0, hi = a < m ? a : m;
    return hi >= lo ? hi - lo + 1 : 0;
}

/* a train route of length L: one colour's plain (a) and anchor (b) cards and wilds, a coloured card at least */
static int train_count(int a, int b, int w, int L) {
    int n = 0, top = w < L ? w : L - 1;
    for (int k = 0; k <= top; k++) n += ways(L - k, a, b);
    return n;
}

/* a ship route of length L: one colour's single (s) and double (d) ship cards and wilds, the values
 * summing to L (or L + 1 in double ships only), a coloured card at least */
static int ship_count(int s, int d, int w, int L) {
    int n = 0, half = (L + 1) / 2, top = d < L / 2 ? d : L / 2;
    for (int dd = 0; dd <= top; dd++) {
        int rem = L - 2 * dd;
        if (!rem) {
            n++;
            continue;
        }
        n += ways(rem, s, w);
        if (!dd && w >= rem) n--; /* all in wilds: counted once, without a colour */
    }
    if (L % 2 && d >= half) n++;
    return n;
}

/* a paired route of L spaces: 2L train cards in one-colour pairs, a wild completing any pair */
static int paired_count(const KTables *t, const int *hand, int L) {
    const int N = 2 * L, S = N + 1, w = hand[t->wild]; /* dp[size * S + odd]: ways so far */
    long dp[(2 * KT_MAX_LENGTH + 1) * (2 * KT_MAX_LENGTH + 1)], nx[(2 * KT_MAX_LENGTH + 1) * (2 * KT_MAX_LENGTH + 1)];
    if (N > 2 * KT_MAX_LENGTH) return 0;
    memset(dp, 0, sizeof(long) * (size_t)(S * S));
    dp[0] = 1;
    for (int c = 0; c < t->ncolors; c++) {
        int a = hand[RS_CARD(t, RS_PLAIN, c)], b = hand[RS_CARD(t, RS_ANCHOR, c)];
        if (!(a + b)) continue; /* no card of the colour: nothing changes */
        memset(nx, 0, sizeof(long) * (size_t)(S * S));
        for (int size = 0; size <= N; size++)
            for (int odd = 0; odd <= N; odd++) {
                long v = dp[size * S + odd];
                if (!v) continue;
                for (int k = 0; k <= a + b && size + k <= N; k++) {
                    int o = odd + (k & 1);
                    if (o <= w) nx[(size + k) * S + o] += v * ways(k, a, b);
                }
            }
        memcpy(dp, nx, sizeof(long) * (size_t)(S * S));
    }
    long n = 0;
    for (int size = 0; size <= N; size++)
        for (int odd = 0; odd <= N; odd++)
            if (odd <= N - size && N - size <= w) n += dp[size * S + odd];
    return (int)n;
}

int rs_route_pays(const KTables *t, const KGame *g, int p, int ri) {
    const int *h = g->hands[p], L = t->rlen[ri], kind = t->rkind[ri], w = h[t->wild];
    if (L > (kind == 1 ? g->ships[p] : g->pieces[p])) return 0;
    if (kind == 2) return paired_count(t, h, L);
    int first = kind == 1 ? RS_SHIP1 : RS_PLAIN, second = first + 1, n = w >= L, col = t->rcolor[ri];
    for (int c = col < 0 ? 0 : col; c < (col < 0 ? t->ncolors : col + 1); c++) {
        int x = h[RS_CARD(t, first, c)], y = h[RS_CARD(t, second, c)];
        if (x + y) n += kind == 1 ? ship_count(x, y, w, L) : train_count(x, y, w, L);
    }
    return n;
}

void rs_class_pays(const KTables *t, const KGame *g, int p, int *out) {
    for (int k = 0; k < t->nclass; k++) out[k] = rs_route_pays(t, g, p, t->class_route[k]);
}

int rs_harbor_count(const KTables *t, const int *h) {
    int w = t->harbor_wilds ? h[t->wild] : 0, n = w >= 4;
    for (int c = 0; c < t->ncolors; c++) {
        int X = h[RS_CARD(t, RS_ANCHOR, c)], Y = h[RS_CARD(t, RS_SHIP1, c)];
        X = X < 2 ? X : 2;
        Y = Y < 2 ? Y : 2;
        for (int x = 0; x <= X; x++)
            for (int y = 0; y <= Y; y++) n += x + y && 4 - x - y <= w;
    }
    return n;
}

/* ------------------------------------------------------------------ listing, in move order */
int rs_move_cards(const KTables *t, int first, const KMove *m, int *card, int *count) {
    int n = 0;
    for (int c = 0; c < t->ncolors; c++) {
        int x = RS_GET(m->b, c), y = RS_GET(m->c, c);
        if (x) card[n] = RS_CARD(t, first, c), count[n++] = x;
        if (y) card[n] = RS_CARD(t, first + 1, c), count[n++] = y;
    }
    if (RS_WILDS(m->c)) card[n] = t->wild, count[n++] = RS_WILDS(m->c);
    for (int i = 1; i < n; i++) /* by name */
        for (int j = i; j > 0 && t->name_rank[card[j]] < t->name_rank[card[j - 1]]; j--) {
            int x = card[j], y = count[j];
            card[j] = card[j - 1], count[j] = count[j - 1];
            card[j - 1] = x, count[j - 1] = y;
        }
    return n;
}

static int rs_first(const KTables *t, const KMove *m) {
    if (m->kind == MV_HARBOR) return RS_ANCHOR;
    return t->rkind[m->a] == 1 ? RS_SHIP1 : RS_PLAIN;
}

static int cmp_pay(const void *x, const void *y) { return memcmp(x, y, RS_KEY); }

static void put(const KTables *t, RSPay *out, int *n, KMove m) {
    int card[2 * KT_MAX_COLORS + 1], count[2 * KT_MAX_COLORS + 1], k = rs_move_cards(t, rs_first(t, &m), &m, card, count);
    RSPay *p = &out[(*n)++];
    memset(p->key, 0, RS_KEY);
    for (int i = 0; i < k; i++) {
        p->key[2 * i] = (unsigned char)(t->name_rank[card[i]] + 1);
        p->key[2 * i + 1] = (unsigned char)count[i];
    }
    p->m = m;
}

/* payments.py _paired_payments: colours from c on, with size cards and odd colours so far */
static void paired_walk(const KTables *t, const int *h, int ri, int N, int c, int size, int odd, int b, int cc,
                        RSPay *out, int *n, int cap) {
    int w = h[t->wild];
    if (c == t->ncolors) {
        int k = N - size;
        if (odd <= k && k <= w && *n < cap) put(t, out, n, (KMove){MV_CLAIM, ri, b, cc | k << 24});
        return;
    }
    int a = h[RS_CARD(t, RS_PLAIN, c)], bb = h[RS_CARD(t, RS_ANCHOR, c)];
    for (int k = 0; k <= a + bb && size + k <= N; k++) {
        int o = odd + (k & 1);
        if (o > w) continue;
        for (int x = k - bb > 0 ? k - bb : 0; x <= (a < k ? a : k); x++)
            paired_walk(t, h, ri, N, c + 1, size + k, o, b | RS_PUT(c, x), cc | RS_PUT(c, k - x), out, n, cap);
    }
}

int rs_payments(const KTables *t, const int *h, int ri, RSPay *out, int cap) {
    const int L = t->rlen[ri], kind = t->rkind[ri], w = h[t->wild], col = t->rcolor[ri];
    int n = 0;
    if (kind == 2) {
        paired_walk(t, h, ri, 2 * L, 0, 0, 0, 0, 0, out, &n, cap);
    } else {
        if (w >= L && n < cap) put(t, out, &n, (KMove){MV_CLAIM, ri, 0, L << 24});
        for (int c = col < 0 ? 0 : col; c < (col < 0 ? t->ncolors : col + 1); c++) {
            if (kind == 1) {
                int sc = h[RS_CARD(t, RS_SHIP1, c)], d = h[RS_CARD(t, RS_SHIP2, c)], half = (L + 1) / 2;
                for (int dd = 0; dd <= (d < L / 2 ? d : L / 2); dd++) {
                    int rem = L - 2 * dd;
                    if (!rem) {
                        if (n < cap) put(t, out, &n, (KMove){MV_CLAIM, ri, 0, RS_PUT(c, dd)});
                        continue;
                    }
                    for (int sp = rem - w > 0 ? rem - w : 0; sp <= (sc < rem ? sc : rem); sp++)
                        if ((dd || sp) && n < cap)
                            put(t, out, &n, (KMove){MV_CLAIM, ri, RS_PUT(c, sp), RS_PUT(c, dd) | (rem - sp) << 24});
                }
                if (L % 2 && d >= half && n < cap) put(t, out, &n, (KMove){MV_CLAIM, ri, 0, RS_PUT(c, half)});
            } else {
                int a = h[RS_CARD(t, RS_PLAIN, c)], b = h[RS_CARD(t, RS_ANCHOR, c)];
                if (!(a + b)) continue;
                for (int k = 0; k <= (w < L - 1 ? w : L - 1); k++) {
                    int m = L - k;
                    for (int x = m - b > 0 ? m - b : 0; x <= (a < m ? a : m); x++)
                        if (n < cap) put(t, out, &n, (KMove){MV_CLAIM, ri, RS_PUT(c, x), RS_PUT(c, m - x) | k << 24});
                }
            }
        }
    }
    qsort(out, (size_t)n, sizeof *out, cmp_pay);
    return n;
}

int rs_harbor_payments(const KTables *t, const int *h, int city, RSPay *out) {
    int w = t->harbor_wilds ? h[t->wild] : 0, n = 0;
    if (w >= 4) put(t, out, &n, (KMove){MV_HARBOR, city, 0, 4 << 24});
    for (int c = 0; c < t->ncolors; c++) {
        int X = h[RS_CARD(t, RS_ANCHOR, c)], Y = h[RS_CARD(t, RS_SHIP1, c)];
        X = X < 2 ? X : 2;
        Y = Y < 2 ? Y : 2;
        for (int x = 0; x <= X; x++)
            for (int y = 0; y <= Y; y++)
                if (x + y && 4 - x - y <= w)
                    put(t, out, &n, (KMove){MV_HARBOR, city, RS_PUT(c, x), RS_PUT(c, y) | (4 - x - y) << 24});
    }
    qsort(out, (size_t)n, sizeof *out, cmp_pay);
    return n;
}

/* decks.py pay: the move's cards from the current hand to their piles' discards, in name order */
void rs_pay(KGame *g, const KTables *t, const KMove *m) {
    int card[2 * KT_MAX_COLORS + 1], count[2 * KT_MAX_COLORS + 1], spent[4 * KT_MAX_LENGTH + 8], ns = 0;
    int k = rs_move_cards(t, rs_first(t, m), m, card, count);
    for (int i = 0; i < k; i++) {
        g->hands[g->cur][card[i]] -= count[i];
        for (int j = 0; j < count[i] && ns < (int)(sizeof spent / sizeof *spent); j++) spent[ns++] = card[i];
    }
    kg_discard(g, t, spent, ns);
}
