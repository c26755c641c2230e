/* The playout policy's Rails & Sails branches (ttr_lab/bots/playout/: __init__.py's _turn, _draw,
 * _points, _goal and _build; plan.py's _needs; tables.py's hand_spaces, affordable and
 * cheapest_payment; tickets.py's split_choice; the edition's ticket_sites, can_build and
 * ticket_build), decision for decision.
 *
 * Cards are counted per kind of card, as Python's keys (ship?, colour): a card covers its
 * value in spaces (a double ship 2), plain and anchor train cards of a colour are one key, single
 * and double ship cards another; a gray route takes the key held most (in the order Python's
 * dict meets the keys: hand_spaces walks the card types in order), "any" of its kind if none.
 * Trains pay train routes, ships ship routes.  The draws name the pile that refills a face-up
 * slot (the ship pile when the plan lacks more ship spaces than train spaces), and a blind draw
 * its pile: the one the plan needs more, a coin of the bot's splitmix64 when they tie (Python's
 * rng.random() < 0.5, drawn only then).  A harbor is built in a ticket city at the end of the
 * seat's routes (by name), paid with the fewest wilds; with its tickets' cards in hand the bot
 * takes face-up anchor cards for it.  The setup split: trains in proportion to the train spaces
 * of the tickets' paths on the empty board (round half to even, as Python's round).
 */
#include <math.h>
#include <string.h>

#include "_kernel.h"
#include "_policy.h"

#define RS_KEY(ship, colour) ((ship) * KT_MAX_COLORS + (colour))
#define RS_ANYK(ship) (2 * KT_MAX_COLORS + (ship)) /* (ship?, "any") */
#define RS_NKEYS (2 * KT_MAX_COLORS + 2)
#define RS_KIND(k) ((k) >= 2 * KT_MAX_COLORS ? (k) - 2 * KT_MAX_COLORS : (k) / KT_MAX_COLORS)
#define SHIP_ROUTE(t, ri) ((t)->rkind[ri] == 1)
#define PAIRED(t, ri) ((t)->rkind[ri] == 2)

/* hand_spaces: spaces per key, wilds apart, and the keys held in the dict's order */
typedef struct {
    int have[RS_NKEYS];
    int order[RS_NKEYS], n;
} Have;

static void rs_have(const KTables *t, const int *h, Have *hv) {
    memset(hv->have, 0, sizeof hv->have);
    hv->n = 0;
    for (int c = 0; c < t->ncards; c++) {
        if (!h[c] || c == t->wild) continue;
        int k = RS_KEY(t->ckind[c], t->ccolor[c]);
        if (!hv->have[k]) hv->order[hv->n++] = k;
        hv->have[k] += h[c] * t->cvalue[c];
    }
}

static int route_key(const KTables *t, int ri) { return RS_KEY(SHIP_ROUTE(t, ri), t->rcolor[ri]); }

static int affordable(const KTables *t, const int *have, int W, int ri) {
    int L = t->rlen[ri];
    if (t->minw[ri] > W) return 0;
    if (PAIRED(t, ri)) { /* L one-colour pairs of train cards, a wild completing any pair */
        int singles = 0, pairs = 0;
        for (int c = 0; c < t->ncolors; c++) {
            int x = have[RS_KEY(0, c)];
            singles += x % 2;
            pairs += x / 2;
        }
        int used = singles < W ? singles : W;
        return pairs + used + (W - used) / 2 >= L;
    }
    if (t->rcolor[ri] >= 0) return have[route_key(t, ri)] + W >= L;
    if (W >= L) return 1;
    for (int c = 0; c < t->ncolors; c++) {
        int v = have[RS_KEY(SHIP_ROUTE(t, ri), c)];
        if (v > 0 && v + W >= L) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ payments, in the engine's order */
/* a payment: per colour its first and second cards (a train route's plain and anchor cards, a ship
 * route's single and double ships, a harbor's anchor trains and single ships), and its wilds; a
 * move sorts as its cards do: (name, count) pairs by name, compared as tuples */
typedef struct {
    int first[KT_MAX_COLORS], second[KT_MAX_COLORS], wilds, anchors;
    int card[2 * KT_MAX_COLORS + 1], count[2 * KT_MAX_COLORS + 1], n;
} Pay;

static int card_of(const KTables *t, int j, int colour) { return colour + t->ncolors * j; }

static void pay_pairs(const KTables *t, Pay *p, int j1, int j2) {
    p->n = 0;
    for (int c = 0; c <= t->ncolors; c++)
        for (int s = 0; s < 2; s++) {
            int card = c == t->ncolors ? t->wild : card_of(t, s ? j2 : j1, c);
            int k = c == t->ncolors ? (s ? 0 : p->wilds) : s ? p->second[c] : p->first[c];
            if (!k) continue;
            int i = p->n++;
            for (; i > 0 && t->name_rank[p->card[i - 1]] > t->name_rank[card]; i--) {
                p->card[i] = p->card[i - 1];
                p->count[i] = p->count[i - 1];
            }
            p->card[i] = card;
            p->count[i] = k;
        }
}

/* Python's tuple order of two payments' cards */
static int pay_cmp(const KTables *t, const Pay *a, const Pay *b) {
    for (int i = 0; i < a->n && i < b->n; i++) {
        if (a->card[i] != b->card[i]) return t->name_rank[a->card[i]] - t->name_rank[b->card[i]];
        if (a->count[i] != b->count[i]) return a->count[i] - b->count[i];
    }
    return a->n - b->n;
}

/* the best payment so far by (wilds, anchor train cards, the move's order) */
typedef struct {
    Pay best;
    int has, j1, j2;
} Best;

static void consider(const KTables *t, Best *b, Pay *p) {
    if (b->has && (p->wilds != b->best.wilds || p->anchors != b->best.anchors)) {
        if (p->wilds > b->best.wilds || (p->wilds == b->best.wilds && p->anchors > b->best.anchors)) return;
        b->has = 0;
    }
    pay_pairs(t, p, b->j1, b->j2);
    if (b->has && pay_cmp(t, p, &b->best) >= 0) return;
    b->best = *p;
    b->has = 1;
}

static void pay_one(Pay *p, int colour, int first, int second, int wilds, int anchors) {
    memset(p->first, 0, sizeof p->first);
    memset(p->second, 0, sizeof p->second);
    if (colour >= 0) {
        p->first[colour] = first;
        p->second[colour] = second;
    }
    p->wilds = wilds;
    p->anchors = anchors;
}

/* counting._paired_payments: N train cards in one-colour pairs, a wild completing any pair; with
 * surplus (no wilds), each colour's cards within it */
static void paired(const KTables *t, const int *h, int N, int w, int c, int size, int odd, const int *surplus, Pay *p,
                   Best *best) {
    if (c == t->ncolors) {
        int k = N - size;
        if (odd <= k && k <= w && !(surplus && k)) {
            p->wilds = k;
            consider(t, best, p);
        }
        return;
    }
    int a = h[card_of(t, RS_PLAIN, c)], b = h[card_of(t, RS_ANCHOR, c)], top = a + b < N - size ? a + b : N - size;
    if (surplus && top > surplus[RS_KEY(0, c)]) top = surplus[RS_KEY(0, c)];
    for (int n = 0; n <= top; n++) {
        if (odd + (n & 1) > w) continue;
        for (int x = n - b > 0 ? n - b : 0; x <= a && x <= n; x++) {
            p->first[c] = x;
            p->second[c] = n - x;
            p->anchors += n - x;
            paired(t, h, N, w, c + 1, size + n, odd + (n & 1), surplus, p, best);
            p->anchors -= n - x;
        }
    }
    p->first[c] = p->second[c] = 0;
}

/* cheapest_payment: the claim of ri with the fewest wilds, then anchor cards, first in the engine's
 * order (RSPayments._list_claims); with surplus, only payments without wilds within it */
static int payment(const KGame *g, const KTables *t, int ri, const int *surplus, KMove *out) {
    const int *h = g->hands[g->cur];
    int L = t->rlen[ri], W = h[t->wild], ship = SHIP_ROUTE(t, ri), col = t->rcolor[ri];
    int lo = col < 0 ? 0 : col, hi = col < 0 ? t->ncolors - 1 : col;
    Best best = {.has = 0, .j1 = ship ? RS_SHIP1 : RS_PLAIN, .j2 = ship ? RS_SHIP2 : RS_ANCHOR};
    Pay p;
    if (PAIRED(t, ri)) {
        pay_one(&p, -1, 0, 0, 0, 0);
        paired(t, h, 2 * L, surplus ? 0 : W, 0, 0, 0, surplus, &p, &best);
    } else {
        if (W >= L && !surplus) {
            pay_one(&p, -1, 0, 0, L, 0);
            consider(t, &best, &p);
        }
        for (int c = lo; c <= hi; c++) {
            int room = surplus ? surplus[RS_KEY(ship, c)] : KT_INF;
            if (ship) {
                int sc = h[card_of(t, RS_SHIP1, c)], d = h[card_of(t, RS_SHIP2, c)];
                int half = (L + 1) / 2, top = d < L / 2 ? d : L / 2;
                for (int dd = 0; dd <= top; dd++) {
                    int rem = L - 2 * dd;
                    if (rem == 0) {
                        if (2 * dd <= room) {
                            pay_one(&p, c, 0, dd, 0, 0);
                            consider(t, &best, &p);
                        }
                        continue;
                    }
                    int s_hi = sc < rem ? sc : rem;
                    for (int sp = rem - W > 0 ? rem - W : 0; sp <= s_hi; sp++) {
                        if (dd == 0 && sp == 0) continue;
                        if (surplus && (rem - sp || sp + 2 * dd > room)) continue;
                        pay_one(&p, c, sp, dd, rem - sp, 0);
                        consider(t, &best, &p);
                    }
                }
                if (L % 2 && d >= half && 2 * half <= room) { /* double ships only, one space over */
                    pay_one(&p, c, 0, half, 0, 0);
                    consider(t, &best, &p);
                }
            } else {
                int a = h[card_of(t, RS_PLAIN, c)], b2 = h[card_of(t, RS_ANCHOR, c)];
                if (!(a + b2)) continue;
                int ktop = W < L - 1 ? W : L - 1;
                for (int k = 0; k <= ktop; k++) {
                    int m = L - k, x_hi = a < m ? a : m;
                    if (surplus && (k || m > room)) continue;
                    for (int x = m - b2 > 0 ? m - b2 : 0; x <= x_hi; x++) {
                        pay_one(&p, c, x, m - x, k, m - x);
                        consider(t, &best, &p);
                    }
                }
            }
        }
    }
    if (!best.has) return 0;
    int first = 0, second = 0;
    for (int c = 0; c < t->ncolors; c++) {
        first |= RS_PUT(c, best.best.first[c]);
        second |= RS_PUT(c, best.best.second[c]);
    }
    *out = (KMove){MV_CLAIM, ri, first, second | best.best.wilds << 24};
    return 1;
}

/* harbor_options' payment with the fewest wilds, first in the move's order (ticket_build), as
 * MV_HARBOR's b and c; 0 if the hand pays for no harbor (harbor_count) */
static int harbor_payment(const KTables *t, const int *h, int *b, int *c) {
    int w = t->harbor_wilds ? h[t->wild] : 0;
    Best best = {.has = 0, .j1 = RS_ANCHOR, .j2 = RS_SHIP1};
    Pay p;
    if (w >= 4) {
        pay_one(&p, -1, 0, 0, 4, 0);
        consider(t, &best, &p);
    }
    for (int col = 0; col < t->ncolors; col++) {
        int na = h[card_of(t, RS_ANCHOR, col)], ns = h[card_of(t, RS_SHIP1, col)];
        int X = na < 2 ? na : 2, Y = ns < 2 ? ns : 2;
        for (int x = 0; x <= X; x++)
            for (int y = 0; y <= Y; y++)
                if (x + y && 4 - x - y <= w) {
                    pay_one(&p, col, x, y, 4 - x - y, 0);
                    consider(t, &best, &p);
                }
    }
    if (!best.has) return 0;
    *b = *c = 0;
    for (int col = 0; col < t->ncolors; col++) {
        *b |= RS_PUT(col, best.best.first[col]);
        *c |= RS_PUT(col, best.best.second[col]);
    }
    *c |= best.best.wilds << 24;
    return 1;
}

/* ------------------------------------------------------------------ the plan's cards (plan.py _needs) */
static void rs_needs(const KBot *b, const KTables *t, const Have *hv, const int *routes, int nr, int *need) {
    int grays[KT_MAX_ROUTES], ng = 0;
    const int *have = hv->have;
    memset(need, 0, sizeof(int) * RS_NKEYS);
    for (int i = 0; i < nr; i++) {
        int ri = routes[i];
        if (t->rcolor[ri] < 0) {
            grays[ng++] = ri;
            continue;
        }
        int k = route_key(t, ri), p = b->alt[ri];
        if (p >= 0 && t->rcolor[p] >= 0) { /* the side of a double whose colour is held more */
            int k2 = RS_KEY(SHIP_ROUTE(t, ri), t->rcolor[p]);
            if (have[k2] - need[k2] > have[k] - need[k]) k = k2;
        }
        need[k] += t->rlen[ri];
    }
    for (int i = 0; i < ng; i++) {
        int ri = grays[i], ship = SHIP_ROUTE(t, ri), best = RS_ANYK(ship), most = 0;
        for (int j = 0; j < hv->n; j++) {
            int k = hv->order[j];
            if (RS_KIND(k) == ship && have[k] - need[k] > most) {
                best = k;
                most = have[k] - need[k];
            }
        }
        need[best] += t->rlen[ri] * (PAIRED(t, ri) ? 2 : 1);
    }
}

/* ------------------------------------------------------------------ decisions (playout/__init__.py) */
static int rs_goal(const KBot *b, const KGame *g, const KTables *t, const int *have, int me, int *out) {
    double score[60];
    int ri_of[60], ns = 0, W = g->hands[me][t->wild];
    int lim = t->nroutes < 60 ? t->nroutes : 60;
    for (int i = 0; i < lim; i++) {
        int ri = t->by_length[i], L = t->rlen[ri], ship = SHIP_ROUTE(t, ri);
        if ((ship ? b->ships : b->trains) < L || L < 3 || PAIRED(t, ri)) continue;
        if (g->owners[ri] >= 0 || !kg_route_open_to(g, t, ri, me)) continue;
        int held = 0;
        if (t->rcolor[ri] < 0) {
            for (int c = 0; c < t->ncolors; c++)
                if (have[RS_KEY(ship, c)] > held) held = have[RS_KEY(ship, c)];
        } else {
            held = have[route_key(t, ri)];
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
    for (int i = 0; i < ns && k < 2; i++) /* of different colours (a colour's name: trains and ships alike) */
        if (!k || t->rcolor[ri_of[i]] != t->rcolor[out[0]]) out[k++] = ri_of[i];
    return k;
}

/* the longest open route the hand pays for within the pieces given, using (with need) no wild and
 * no card the plan needs */
static int rs_points(const KBot *b, const KGame *g, const KTables *t, const int *have0, int W, int trains, int ships,
                     const int *need, int shortest, KMove *out) {
    int me = g->cur, sur[RS_NKEYS];
    const int *have = have0, *surplus = NULL;
    unsigned char planned[KT_MAX_ROUTES] = {0};
    if (need) {
        for (int k = 0; k < RS_NKEYS; k++) sur[k] = have0[k] > need[k] ? have0[k] - need[k] : 0;
        have = surplus = sur;
        W = 0;
    }
    for (int i = 0; i < b->nplan; i++) planned[b->plan[i]] = 1;
    for (int i = 0; i < t->nroutes; i++) {
        int ri = t->by_length[i], L = t->rlen[ri];
        if ((SHIP_ROUTE(t, ri) ? ships : trains) < L || planned[ri] || !affordable(t, have, W, ri)) continue;
        if (shortest > L) return 0;
        if (g->owners[ri] >= 0 || !kg_route_open_to(g, t, ri, me)) continue;
        if (payment(g, t, ri, surplus, out)) return 1;
    }
    return 0;
}

/* the edition's ticket_sites: free harbor cities the seat's tickets show, at the end of its
 * routes, while it has harbors left; by name */
static void ticket_sites(KBot *b, const KGame *g, const KTables *t, int me) {
    unsigned char want[KT_MAX_CITIES] = {0}, ends[KT_MAX_CITIES] = {0};
    b->ntouch = 0;
    b->touch_valid = 1;
    if (t->harbors_max - g->nharbors[me] <= 0) return;
    for (int i = 0; i < g->ntickets[me]; i++) {
        int ti = g->tickets[me][i];
        for (int k = 0; k < t->tncity[ti]; k++) want[t->tcity[ti][k]] = 1;
    }
    for (int ri = 0; ri < t->nroutes; ri++)
        if (g->owners[ri] == me) ends[t->ra[ri]] = ends[t->rb[ri]] = 1;
    for (int r = 0; r < t->nhcity; r++) {
        int c = t->hcity[r];
        if (want[c] && ends[c] && g->harbor_at[c] < 0) b->touch[b->ntouch++] = c;
    }
}

/* why_illegal(harbor) is None: a free harbor city at the end of one of the seat's routes, a harbor left */
static int harbor_legal(const KGame *g, const KTables *t, int me, int city) {
    if (t->hrank[city] < 0 || g->harbor_at[city] >= 0 || g->nharbors[me] >= t->harbors_max) return 0;
    for (int ri = 0; ri < t->nroutes; ri++)
        if (g->owners[ri] == me && (t->ra[ri] == city || t->rb[ri] == city)) return 1;
    return 0;
}

/* _build: a harbor in a ticket city, paid with the fewest wilds; the sites are kept until the
 * scores change or a harbor is chosen (another seat may have built there meanwhile) */
static int rs_build(KBot *b, const KGame *g, const KTables *t, KMove *out) {
    int me = g->cur, total = 0, sites[KT_MAX_CITIES], n, pb, pc;
    const int *h = g->hands[me];
    for (int c = 0; c < t->ncards; c++) total += h[c];
    if (total < 4 || !harbor_payment(t, h, &pb, &pc)) return 0; /* can_build */
    if (!b->touch_valid) ticket_sites(b, g, t, me);
    n = b->ntouch;
    memcpy(sites, b->touch, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        b->touch_valid = 0;
        if (harbor_legal(g, t, me, sites[i])) {
            *out = (KMove){MV_HARBOR, sites[i], pb, pc};
            return 1;
        }
    }
    return 0;
}

int kp_rs_draw(KBot *b, const KGame *g, const KTables *t, int second, KMove *out) {
    int need[RS_NKEYS], lack[RS_NKEYS], nlack = 0, sumlack = 0, need_of[2] = {0, 0}, me = g->cur;
    Have hv;
    rs_have(t, g->hands[me], &hv);
    if (b->done) {
        if (!b->has_goal_sig || memcmp(b->goal_sig, b->sig, sizeof(int) * (size_t)g->n)) {
            memcpy(b->goal_sig, b->sig, sizeof b->goal_sig);
            b->has_goal_sig = 1;
            b->ngoal = rs_goal(b, g, t, hv.have, me, b->goal);
        }
        rs_needs(b, t, &hv, b->goal, b->ngoal, need);
    } else {
        rs_needs(b, t, &hv, b->plan, b->nplan, need);
    }
    for (int k = 0; k < RS_NKEYS; k++) {
        lack[k] = need[k] > hv.have[k] ? need[k] - hv.have[k] : 0;
        if (lack[k]) {
            nlack++;
            sumlack += lack[k];
            need_of[RS_KIND(k)] += lack[k];
        }
    }
    int anchors = !nlack && t->harbors_max - g->nharbors[me] > 0; /* cards for a harbor */
    int best_want = 0, best_slot = 0, wild_slot = 0;
    for (int i = 0; i < t->row_size; i++) {
        int c = g->row[i];
        if (c < 0) continue;
        if (c == t->wild) {
            if (!wild_slot) wild_slot = i + 1;
            continue;
        }
        int k = RS_KEY(t->ckind[c], t->ccolor[c]);
        int want = lack[k] ? lack[k] : lack[RS_ANYK(t->ckind[c])] ? 1 : (anchors && t->canchor[c]) ? 1 : 0;
        if (want && (!best_slot || want > best_want)) {
            best_want = want;
            best_slot = i + 1;
        }
    }
    int refill = need_of[1] > need_of[0] ? 1 : 0; /* the ship pile turns up the replacement */
    if (best_slot) {
        *out = (KMove){MV_FACEUP, best_slot, refill, 0};
        return 0;
    }
    if (!second && wild_slot && nlack > 0 && nlack <= 3 && sumlack >= 2) {
        *out = (KMove){MV_FACEUP, wild_slot, refill, 0};
        return 0;
    }
    int ok0 = g->ndeck[0] || g->ndisc[0], ok1 = t->npiles > 1 && (g->ndeck[1] || g->ndisc[1]);
    if (ok0 || ok1) {
        int q = ok0 ? 0 : 1;
        if (ok0 && ok1)
            q = need_of[1] > need_of[0] || (need_of[1] == need_of[0] && splitmix_random(&b->rng) < 0.5) ? 1 : 0;
        *out = (KMove){MV_BLIND, q, 0, 0};
        return 0;
    }
    /* no card in either pile: the first face-up move of the legal ones (a wild only as the first
     * card), whose refill names the piles in name order: "ships" before "trains" (Piles.faceup_moves) */
    for (int i = 0; i < t->row_size; i++) {
        int c = g->row[i];
        if (c >= 0 && !(second && c == t->wild)) {
            *out = (KMove){MV_FACEUP, i + 1, 1, 0};
            return 0;
        }
    }
    if (second && t->single_draw) return -1; /* no card to take: the engine lists no move (Python fails too) */
    return kg_first_legal(g, t, out);
}

int kp_rs_turn(KBot *b, const KGame *g, const KTables *t, KMove *out) {
    int me = g->cur, need[RS_NKEYS];
    const int *h = g->hands[me];
    int W = h[t->wild], trains = b->trains, ships = b->ships;
    Have hv;
    rs_have(t, h, &hv);
    const int *have = hv.have;
    for (int i = 0; i < b->nplan; i++) { /* the longest planned route the hand pays for (either side of a double) */
        int ri = b->plan[i];
        if ((SHIP_ROUTE(t, ri) ? ships : trains) < t->rlen[ri]) continue;
        int sides[2] = {ri, b->alt[ri]};
        for (int s = 0; s < 2; s++)
            if (sides[s] >= 0 && affordable(t, have, W, sides[s]) && payment(g, t, sides[s], NULL, out)) return 0;
    }
    int left = g->final_, lowest = b->lowest, end = t->end_threshold;
    int ending = left >= 0 || lowest <= end + 2, hopeless = 0;
    if (ending && b->nplan) { /* can the plan still be finished? */
        rs_needs(b, t, &hv, b->plan, b->nplan, need);
        int lack = 0;
        for (int k = 0; k < RS_NKEYS; k++)
            if (need[k] > have[k]) lack += need[k] - have[k];
        int turns = b->nplan + (lack + 1) / 2;
        int mine_left = left < 0 ? KT_INF : (left + g->n - 1) / g->n;
        hopeless = turns > mine_left || (lowest <= end + 2 && turns > 3);
    }
    if (hopeless || (b->done && ending)) { /* points for what is left, any length */
        if (rs_points(b, g, t, have, W, trains, ships, NULL, 1, out)) return 0;
    } else if (b->done) { /* a harbor, more tickets while pieces remain, else long routes */
        if (rs_build(b, g, t, out)) return 0;
        if (lowest > end + 13 && trains + ships >= 18 && g->ntdeck) {
            *out = (KMove){MV_TICKETS, 0, 0, 0};
            return 0;
        }
        if (rs_points(b, g, t, have, W, trains, ships, NULL, trains + ships < 4 ? trains + ships : 4, out)) return 0;
        return kp_rs_draw(b, g, t, 0, out);
    } else {
        int total = 0;
        for (int c = 0; c < t->ncards; c++) total += h[c];
        if (total >= 24) { /* spend cards the plan does not need, with pieces it does not need */
            rs_needs(b, t, &hv, b->plan, b->nplan, need);
            int spare_t = trains, spare_s = ships;
            for (int i = 0; i < b->nplan; i++) {
                int ri = b->plan[i];
                if (SHIP_ROUTE(t, ri))
                    spare_s -= t->rlen[ri];
                else
                    spare_t -= t->rlen[ri];
            }
            if (rs_points(b, g, t, have, W, spare_t, spare_s, need, 3, out)) return 0;
        }
    }
    if (rs_build(b, g, t, out)) return 0;
    return kp_rs_draw(b, g, t, 0, out);
}

/* ------------------------------------------------------------------ the setup split (tickets.py) */
int kp_rs_split(const KGame *g, const KTables *t, KMove *out) {
    unsigned char in[KT_MAX_ROUTES] = {0};
    int me = g->cur, tr = 6, sh = 6;
    for (int i = 0; i < g->ntickets[me]; i++) kp_static_routes(t, g->tickets[me][i], in);
    for (int ri = 0; ri < t->nroutes; ri++)
        if (in[ri]) {
            if (SHIP_ROUTE(t, ri))
                sh += t->rlen[ri];
            else
                tr += t->rlen[ri];
        }
    double v = (double)t->total_pieces * (double)tr / (double)(tr + sh), f = floor(v), d = v - f;
    int pick = (int)f + (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0)); /* round half to even */
    if (pick < t->train_lo) pick = t->train_lo;
    if (pick > t->train_hi) pick = t->train_hi;
    *out = (KMove){MV_PIECES, pick, 0, 0};
    return 0;
}
