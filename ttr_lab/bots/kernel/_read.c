/* Reading an edition's tables and a position from the flat int32 arrays
 * ttr_lab/bots/kernel/convert.py builds (the layouts are documented there).
 *
 * Everything is checked before it is used: sizes, ranges, that every card
 * of the edition is somewhere exactly once, that no ticket is in two
 * places.  A failure returns -1 with the field and the problem in err.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"

#define FAIL(...)                             \
    do {                                      \
        snprintf(err, (size_t)errlen, __VA_ARGS__); \
        return -1;                            \
    } while (0)

typedef struct {
    const int32_t *a;
    int64_t n, i;
} Reader;

static int next(Reader *r, int *out) {
    if (r->i >= r->n) return -1;
    *out = (int)r->a[r->i++];
    return 0;
}

#define READ(var, lo, hi, what)                                                                         \
    do {                                                                                                \
        if (next(&r, &(var))) FAIL("%s: the array ends at %lld ints", what, (long long)r.n);          \
        if ((var) < (lo) || (var) > (hi)) FAIL("%s is %d, not from %d to %d", what, (var), (lo), (hi)); \
    } while (0)

/* ------------------------------------------------------------------ the edition */
/* Rails & Sails' block: options, pieces, harbors, cards, ship routes, harbor cities, tickets as
 * city lists (convert.py's layout); the card types must be the colours' plain trains, anchor
 * trains, single ships and double ships, then the wild (the moves' encoding relies on it) */
static int rs_tables_read(KTables *t, Reader *rp, char *err, int errlen) {
    Reader r = *rp;
    READ(t->harbor_wilds, 0, 1, "tables: harbor_wilds");
    READ(t->tour_order, 0, 2, "tables: tour_order");
    READ(t->tiebreak_tickets, 0, 1, "tables: tiebreak");
    READ(t->total_pieces, 1, KT_MAX_PIECES, "tables: pieces played");
    if (t->total_pieces != t->pieces) FAIL("tables: pieces played are %d, the pieces %d", t->total_pieces, t->pieces);
    READ(t->train_max, 0, KT_MAX_PIECES, "tables: trains in the box");
    READ(t->ship_max, 0, KT_MAX_PIECES, "tables: ships in the box");
    READ(t->train_lo, 0, t->train_max, "tables: fewest trains");
    READ(t->train_hi, t->train_lo, t->train_max, "tables: most trains");
    if (t->train_lo < t->total_pieces - t->ship_max || t->train_hi > t->total_pieces)
        FAIL("tables: the split %d-%d of %d pieces does not fit the box", t->train_lo, t->train_hi, t->total_pieces);
    READ(t->harbors_max, 0, KT_MAX_HARBORS, "tables: harbors per player");
    t->harbor_points[0] = 0;
    for (int k = 1; k <= 3; k++) READ(t->harbor_points[k], 0, 1000, "tables: harbor points");
    READ(t->harbor_penalty, 0, 1000, "tables: unbuilt harbor penalty");
    READ(t->ncolors, 1, KT_MAX_COLORS, "tables: colours");
    if (t->ncards != 4 * t->ncolors + 1) FAIL("tables: %d card types, not 4 per colour and the wild", t->ncards);
    for (int c = 0; c < t->ncards; c++) {
        int j = c / t->ncolors, wild = c == t->wild;
        READ(t->ckind[c], wild ? 2 : j / 2, wild ? 2 : j / 2, "tables: card kind");
        READ(t->ccolor[c], wild ? -1 : c % t->ncolors, wild ? -1 : c % t->ncolors, "tables: card colour");
        READ(t->cvalue[c], j == RS_SHIP2 ? 2 : 1, j == RS_SHIP2 ? 2 : 1, "tables: card value");
        READ(t->canchor[c], wild || j == RS_ANCHOR || j == RS_SHIP1, wild || j == RS_ANCHOR || j == RS_SHIP1,
             "tables: card harbor symbol");
        if (t->card_pile[c] != (!wild && j >= RS_SHIP1)) FAIL("tables: card %d in the wrong pile", c);
    }
    if (t->npiles != 2) FAIL("tables: Rails & Sails has two card piles");
    for (int i = 0; i < t->nroutes; i++) {
        READ(t->rkind[i], 0, 2, "tables: route kind");
        if (t->rcolor[i] >= t->ncolors) FAIL("tables: route %d's colour is a card's, not a colour", t->rid[i]);
    }
    for (int c = 0; c < t->ncities; c++) t->hcity[c] = -1;
    t->nhcity = 0;
    for (int c = 0; c < t->ncities; c++) {
        READ(t->hrank[c], -1, t->ncities - 1, "tables: harbor city rank");
        if (t->hrank[c] < 0) continue;
        if (t->hcity[t->hrank[c]] >= 0) FAIL("tables: harbor city rank %d given twice", t->hrank[c]);
        t->hcity[t->hrank[c]] = c;
        t->nhcity++;
    }
    for (int k = 0; k < t->nhcity; k++)
        if (t->hcity[k] < 0) FAIL("tables: harbor city ranks are not 0 to %d", t->nhcity - 1);
    for (int i = 0; i < t->nroutes; i++) {
        t->route_harbors[i][0] = t->hrank[t->ra[i]];
        t->route_harbors[i][1] = t->hrank[t->rb[i]];
        int k = 0;
        while (k < t->nclass && !(t->rkind[t->class_route[k]] == t->rkind[i] && t->rcolor[t->class_route[k]] == t->rcolor[i] &&
                                  t->rlen[t->class_route[k]] == t->rlen[i]))
            k++;
        if (k == t->nclass) t->class_route[t->nclass++] = i;
        t->rclass[i] = k;
    }
    for (int i = 0; i < t->nticket; i++) {
        READ(t->tncity[i], 2, KT_MAX_TOUR, "tables: ticket cities");
        for (int k = 0; k < t->tncity[i]; k++) {
            READ(t->tcity[i][k], 0, t->ncities - 1, "tables: ticket city");
            for (int j = 0; j < k; j++)
                if (t->tcity[i][j] == t->tcity[i][k]) FAIL("tables: ticket %d names a city twice", t->tid[i]);
        }
        if (t->tcity[i][0] != t->ta[i] || t->tcity[i][t->tncity[i] - 1] != t->tb[i])
            FAIL("tables: ticket %d's cities do not start and end at its ends", t->tid[i]);
        READ(t->tany[i], 0, 1000, "tables: ticket points in any order");
        READ(t->tfailed[i], -1000, 0, "tables: ticket points when failed");
    }
    *rp = r;
    return 0;
}

static int by_length_cmp(const void *x, const void *y, const KTables *t) {
    int i = *(const int *)x, j = *(const int *)y;
    if (t->rlen[i] != t->rlen[j]) return t->rlen[j] - t->rlen[i];
    return i - j;
}

int kt_tables_read(KTables *t, const int32_t *a, int64_t n, char *err, int errlen) {
    Reader r = {a, n, 0};
    int v;
    memset(t, 0, sizeof *t);
    READ(v, KT_MAGIC_TABLES, KT_MAGIC_TABLES, "tables: magic");
    READ(v, KT_VERSION, KT_VERSION, "tables: version");
    READ(t->family, KF_USA, KF_RS, "tables: rules family");
    READ(t->ncities, 2, KT_MAX_CITIES, "tables: cities");
    READ(t->nroutes, 1, KT_MAX_ROUTES, "tables: routes");
    READ(t->ncards, 2, KT_MAX_CARD_TYPES, "tables: card types");
    READ(t->wild, t->ncards - 1, t->ncards - 1, "tables: the wild card (the last type)");
    READ(t->nticket, 0, KT_MAX_TABLE_TICKETS, "tables: tickets");
    READ(t->row_size, 1, KT_MAX_ROW, "tables: row size");
    READ(t->pieces, 1, KT_MAX_PIECES, "tables: pieces");
    READ(t->end_threshold, 0, t->pieces, "tables: end threshold");
    READ(t->final_turns, 1, 4, "tables: final turns");
    READ(t->double_min, 0, KT_MAX_PLAYERS + 1, "tables: double-route players");
    READ(t->setup_deal, 0, KT_MAX_PENDING, "tables: setup deal");
    READ(t->setup_keep, 0, t->setup_deal, "tables: setup keep");
    READ(t->draw_k, 1, KT_MAX_PENDING, "tables: ticket draw");
    READ(t->draw_keep, 0, t->draw_k, "tables: draw keep");
    READ(t->lp_bonus, 0, 1000, "tables: longest path bonus");
    READ(t->gt_bonus, 0, 1000, "tables: globetrotter bonus");
    READ(t->tiebreak_path, 0, 1, "tables: tiebreak");
    READ(t->max_resets, -1, 1000, "tables: max consecutive resets");
    READ(t->deal_row_late, 0, 1, "tables: deal row after tickets");
    READ(t->single_draw, 0, 1, "tables: allow single draw");
    READ(t->maxlen, 1, KT_MAX_LENGTH, "tables: longest route");
    int europe = t->family == KF_EUROPE;
    READ(t->stations_max, 0, europe ? KT_MAX_STATIONS : 0, "tables: stations per player");
    READ(t->station_points, 0, europe ? 100 : 0, "tables: points per station left");
    READ(t->setup_to_box, 0, europe, "tables: unkept initial tickets to the box");
    t->points[0] = 0;
    for (int L = 1; L <= t->maxlen; L++) READ(t->points[L], 0, 100, "tables: route points");
    t->total_cards = 0;
    for (int c = 0; c < t->ncards; c++) {
        READ(t->composition[c], 0, KT_MAX_CARDS, "tables: deck composition");
        t->total_cards += t->composition[c];
    }
    if (t->total_cards > KT_MAX_CARDS) FAIL("tables: %d cards, more than %d", t->total_cards, KT_MAX_CARDS);
    int seen[KT_MAX_CARD_TYPES] = {0};
    for (int c = 0; c < t->ncards; c++) {
        READ(t->name_rank[c], 0, t->ncards - 1, "tables: card name rank");
        if (seen[t->name_rank[c]]++) FAIL("tables: card name rank %d given twice", t->name_rank[c]);
    }
    READ(t->npiles, 1, KT_MAX_PILES, "tables: card piles");
    for (int q = 0, slots = 0; q < t->npiles; q++) {
        READ(t->row_split[q], 0, t->row_size - slots, "tables: a pile's share of the row");
        for (int j = 0; j < t->row_split[q]; j++) t->slot_pile[slots++] = q;
        if (q == t->npiles - 1 && slots != t->row_size) FAIL("tables: the piles' shares are not the row's %d", t->row_size);
    }
    for (int c = 0; c < t->ncards; c++) READ(t->card_pile[c], 0, t->npiles - 1, "tables: a card's pile");
    for (int i = 0; i < t->nroutes; i++) {
        READ(t->rid[i], 0, 1000000, "tables: route id");
        if (i && t->rid[i] <= t->rid[i - 1]) FAIL("tables: route ids must increase (route %d)", t->rid[i]);
        READ(t->ra[i], 0, t->ncities - 1, "tables: route city");
        READ(t->rb[i], 0, t->ncities - 1, "tables: route city");
        if (t->ra[i] == t->rb[i]) FAIL("tables: route %d joins a city to itself", t->rid[i]);
        READ(t->rlen[i], 1, t->maxlen, "tables: route length");
        READ(t->rcolor[i], -1, t->wild - 1, "tables: route colour");
        READ(t->partner[i], -1, t->nroutes - 1, "tables: route partner");
        if (t->partner[i] == i) FAIL("tables: route %d is its own double", t->rid[i]);
        READ(t->minw[i], 0, europe ? t->rlen[i] : 0, "tables: route locomotive spaces");
        READ(t->tunnel[i], 0, europe, "tables: route tunnel (0/1)");
        if (t->tunnel[i] && t->minw[i]) FAIL("tables: route %d is a tunnel with locomotive spaces", t->rid[i]);
        if (t->minw[i]) t->ferry[t->nferry++] = i;
    }
    for (int i = 0; i < t->nroutes; i++) {
        int p = t->partner[i];
        if (p >= 0 && (t->partner[p] != i || t->rlen[p] != t->rlen[i]))
            FAIL("tables: routes %d and %d are not each other's double", t->rid[i], t->rid[p]);
    }
    t->ticket_of_id = malloc(sizeof(int) * (KT_MAX_TICKET_ID + 1));
    if (!t->ticket_of_id) FAIL("out of memory");
    for (int i = 0; i <= KT_MAX_TICKET_ID; i++) t->ticket_of_id[i] = -1;
    for (int i = 0; i < t->nticket; i++) {
        READ(t->tid[i], 0, KT_MAX_TICKET_ID, "tables: ticket id");
        if (t->ticket_of_id[t->tid[i]] >= 0) FAIL("tables: ticket id %d given twice", t->tid[i]);
        t->ticket_of_id[t->tid[i]] = i;
        READ(t->ta[i], 0, t->ncities - 1, "tables: ticket city");
        READ(t->tb[i], 0, t->ncities - 1, "tables: ticket city");
        if (t->ta[i] == t->tb[i]) FAIL("tables: ticket %d joins a city to itself", t->tid[i]);
        READ(t->tpoints[i], 0, 1000, "tables: ticket points");
        READ(t->tpenalty[i], 0, 1000, "tables: ticket penalty");
    }
    /* the station cities: each city's rank by name among them (-1: none there), each rank once */
    for (int c = 0; c < t->ncities; c++) t->scity[c] = -1;
    t->nscity = 0;
    for (int c = 0; c < t->ncities; c++) {
        READ(t->srank[c], -1, t->ncities - 1, "tables: station city rank");
        if (t->srank[c] < 0) continue;
        if (!t->stations_max) FAIL("tables: a station city without stations");
        if (t->scity[t->srank[c]] >= 0) FAIL("tables: station city rank %d given twice", t->srank[c]);
        t->scity[t->srank[c]] = c;
        t->nscity++;
    }
    for (int k = 0; k < t->nscity; k++)
        if (t->scity[k] < 0) FAIL("tables: station city ranks are not 0 to %d", t->nscity - 1);
    if (t->family == KF_RS && rs_tables_read(t, &r, err, errlen)) return -1;
    if (r.i != r.n) FAIL("tables: %lld ints left over", (long long)(r.n - r.i));
    /* points -> length where only one length gives them (the policy reads claims off the scores) */
    t->max_points = 0;
    for (int L = 1; L <= t->maxlen; L++)
        if (t->points[L] > t->max_points) t->max_points = t->points[L];
    for (int p = 0; p <= t->max_points; p++) {
        int found = 0;
        for (int L = 1; L <= t->maxlen; L++)
            if (t->points[L] == p) found = found ? -1 : L;
        t->inverse[p] = found > 0 ? found : 0;
    }
    /* adjacency in route order */
    int deg[KT_MAX_CITIES + 1] = {0};
    for (int i = 0; i < t->nroutes; i++) {
        deg[t->ra[i]]++;
        deg[t->rb[i]]++;
    }
    for (int c = 0; c < t->ncities; c++)
        if (deg[c] > 64) FAIL("tables: city %d has %d routes, more than 64", c, deg[c]);
    t->adj_start[0] = 0;
    for (int c = 0; c < t->ncities; c++) t->adj_start[c + 1] = t->adj_start[c] + deg[c];
    int fill[KT_MAX_CITIES];
    for (int c = 0; c < t->ncities; c++) fill[c] = t->adj_start[c];
    for (int i = 0; i < t->nroutes; i++) {
        int x = t->ra[i], y = t->rb[i];
        t->adj_city[fill[x]] = y;
        t->adj_route[fill[x]++] = i;
        t->adj_city[fill[y]] = x;
        t->adj_route[fill[y]++] = i;
    }
    /* routes longest first (insertion sort: stable and small) */
    for (int i = 0; i < t->nroutes; i++) {
        int j = i;
        while (j > 0 && by_length_cmp(&i, &t->by_length[j - 1], t) < 0) {
            t->by_length[j] = t->by_length[j - 1];
            j--;
        }
        t->by_length[j] = i;
    }
    /* every ordered pair's cheapest path on the empty board */
    int nc = t->ncities, cost[KT_MAX_ROUTES], buf[KT_MAX_CITIES];
    for (int i = 0; i < t->nroutes; i++) cost[i] = t->rlen[i];
    t->static_len = malloc(sizeof(int) * (size_t)nc * (size_t)nc);
    t->static_off = malloc(sizeof(int) * (size_t)nc * (size_t)nc);
    t->static_n = malloc(sizeof(int) * (size_t)nc * (size_t)nc);
    t->static_pool = malloc(sizeof(int) * (size_t)nc * (size_t)nc * (size_t)nc);
    if (!t->static_len || !t->static_off || !t->static_n || !t->static_pool) FAIL("out of memory");
    int used = 0;
    for (int x = 0; x < nc; x++)
        for (int y = 0; y < nc; y++) {
            int k = x * nc + y, m = 0;
            t->static_len[k] = x == y ? 0 : kt_path(t, cost, x, y, buf, &m);
            t->static_off[k] = used;
            t->static_n[k] = x == y ? 0 : m;
            for (int j = 0; j < t->static_n[k]; j++) t->static_pool[used++] = buf[j];
        }
    return 0;
}

void kt_tables_free(KTables *t) {
    free(t->ticket_of_id);
    free(t->static_len);
    free(t->static_off);
    free(t->static_n);
    free(t->static_pool);
    t->ticket_of_id = t->static_len = t->static_off = t->static_n = t->static_pool = NULL;
}

/* ------------------------------------------------------------------ a position */
static int read_ticket(Reader *rp, const KTables *t, int *out, const char *what, char *err, int errlen) {
    Reader r = *rp;
    int id;
    READ(id, 0, KT_MAX_TICKET_ID, what);
    int ti = t->ticket_of_id[id];
    if (ti < 0) FAIL("%s: there is no ticket %d", what, id);
    *out = ti;
    *rp = r;
    return 0;
}

/* Rails & Sails' block of a position: each seat's ships, box, split, exchanges and harbors; the
 * pieces of each kind conserved (in supply, placed, in the box) */
static int rs_position_read(KGame *g, const KTables *t, Reader *rp, char *err, int errlen) {
    Reader r = *rp;
    int setup = g->phase == PH_SETUP || g->phase == PH_PIECES;
    for (int c = 0; c < t->ncities; c++) g->harbor_at[c] = -1;
    for (int p = 0; p < g->n; p++) {
        int placed[2] = {0, 0};
        for (int i = 0; i < t->nroutes; i++)
            if (g->owners[i] == p) placed[t->rkind[i] == 1] += t->rlen[i];
        READ(g->ships[p], 0, t->ship_max, "position: ships");
        READ(g->tbox[p], 0, t->train_max, "position: trains in the box");
        READ(g->sbox[p], 0, t->ship_max, "position: ships in the box");
        if (g->pieces[p] + placed[0] + g->tbox[p] != t->train_max || g->ships[p] + placed[1] + g->sbox[p] != t->ship_max)
            FAIL("position: seat %d's pieces are not all in supply, placed or in the box", p);
        if (g->pieces[p] + g->ships[p] + placed[0] + placed[1] > t->total_pieces)
            FAIL("position: seat %d plays with more than %d pieces", p, t->total_pieces);
        if (setup && g->pieces[p] + g->ships[p] + placed[0] + placed[1])
            FAIL("position: seat %d has pieces out of the box before the split", p);
        READ(g->choice[p], -1, t->train_hi, "position: the setup split");
        if (g->choice[p] >= 0 && g->choice[p] < t->train_lo) FAIL("position: seat %d's split is below %d", p, t->train_lo);
        if (!setup && g->phase != PH_OVER && g->choice[p] < 0) FAIL("position: seat %d has not split its pieces", p);
        READ(g->exchanged[p], 0, 100000, "position: pieces exchanged");
        READ(g->nharbors[p], 0, t->harbors_max, "position: harbors built");
        for (int i = 0; i < g->nharbors[p]; i++) {
            int c;
            READ(c, 0, t->ncities - 1, "position: harbor city");
            if (t->hrank[c] < 0) FAIL("position: city %d is not a harbor city", c);
            if (g->harbor_at[c] >= 0) FAIL("position: two harbors in city %d", c);
            g->harbors[p][i] = c;
            g->harbor_at[c] = p;
        }
    }
    *rp = r;
    return 0;
}

int kg_read(KGame *g, const KTables *t, const int32_t *a, int64_t n, const char *prefix, int prefix_len, char *err,
            int errlen) {
    Reader r = {a, n, 0};
    int v, np;
    int count[KT_MAX_CARD_TYPES] = {0};
    memset(g, 0, sizeof *g);
    READ(v, KT_MAGIC_STATE, KT_MAGIC_STATE, "position: magic");
    READ(v, KT_VERSION, KT_VERSION, "position: version");
    READ(np, 2, KT_MAX_PLAYERS, "position: players");
    g->n = np;
    READ(g->phase, 0, PH_OVER, "position: phase");
    int last = t->family == KF_EUROPE ? PH_TUNNEL : PH_KEEP;
    if (g->phase > last && g->phase != PH_OVER && !(t->family == KF_RS && g->phase == PH_PIECES))
        FAIL("position: phase %d is not one of this edition", g->phase);
    READ(g->cur, 0, np - 1, "position: current seat");
    READ(g->first, 0, np - 1, "position: first seat");
    READ(g->turn, 0, 10000000, "position: turn");
    READ(g->final_, -1, np * t->final_turns, "position: final turns left");
    READ(g->passes, 0, np, "position: passes");
    READ(g->resets, 0, 10000000, "position: resets");
    READ(g->shuffles, 0, 10000000, "position: shuffles");
    for (int i = 0; i < t->row_size; i++) {
        READ(g->row[i], -1, t->ncards - 1, "position: row");
        if (g->row[i] >= 0) count[g->row[i]]++;
    }
    for (int p = 0; p < np; p++)
        for (int c = 0; c < t->ncards; c++) {
            READ(g->hands[p][c], 0, KT_MAX_CARDS, "position: hand");
            count[c] += g->hands[p][c];
        }
    for (int i = 0; i < t->nroutes; i++) READ(g->owners[i], -1, np - 1, "position: route owner");
    for (int p = 0; p < np; p++) READ(g->pieces[p], 0, t->pieces, "position: pieces");
    for (int p = 0; p < np; p++) READ(g->scores[p], -KT_MAX_SCORE, KT_MAX_SCORE, "position: score");
    for (int q = 0; q < 2 * t->npiles; q++) { /* each pile's deck, then each pile's discard */
        int disc = q >= t->npiles, pile = q % t->npiles, *cards = disc ? g->disc[pile] : g->deck[pile];
        int *size = disc ? &g->ndisc[pile] : &g->ndeck[pile];
        READ(*size, 0, t->total_cards, disc ? "position: discard size" : "position: deck size");
        for (int i = 0; i < *size; i++) {
            READ(cards[i], 0, t->ncards - 1, disc ? "position: discard card" : "position: deck card");
            if (t->card_pile[cards[i]] != pile) FAIL("position: a card of pile %d in pile %d", t->card_pile[cards[i]], pile);
            count[cards[i]]++;
        }
    }
    /* tickets: none in two places */
    unsigned char where[KT_MAX_TICKETS] = {0};
    for (int p = 0; p < np; p++) {
        READ(g->ntickets[p], 0, t->nticket, "position: tickets held");
        for (int i = 0; i < g->ntickets[p]; i++) {
            if (read_ticket(&r, t, &g->tickets[p][i], "position: ticket held", err, errlen)) return -1;
            if (where[g->tickets[p][i]]++) FAIL("position: ticket %d is in two places", t->tid[g->tickets[p][i]]);
        }
    }
    READ(g->npending, 0, KT_MAX_PENDING, "position: pending tickets");
    for (int i = 0; i < g->npending; i++) {
        if (read_ticket(&r, t, &g->pending[i], "position: pending ticket", err, errlen)) return -1;
        if (where[g->pending[i]]++) FAIL("position: ticket %d is in two places", t->tid[g->pending[i]]);
    }
    READ(g->has_setup, 0, 1, "position: setup deal present");
    if (g->has_setup)
        for (int p = 0; p < np; p++) {
            READ(g->nsetup[p], 0, KT_MAX_PENDING, "position: setup deal size");
            for (int i = 0; i < g->nsetup[p]; i++)
                if (read_ticket(&r, t, &g->setup[p][i], "position: setup deal ticket", err, errlen)) return -1;
        }
    READ(g->ntdeck, 0, t->nticket, "position: ticket deck size");
    for (int i = 0; i < g->ntdeck; i++) {
        if (read_ticket(&r, t, &g->tdeck[i], "position: ticket deck", err, errlen)) return -1;
        if (where[g->tdeck[i]]++) FAIL("position: ticket %d is in two places", t->tid[g->tdeck[i]]);
    }
    READ(g->nbox, 0, t->nticket, "position: box size");
    for (int i = 0; i < g->nbox; i++) {
        if (read_ticket(&r, t, &g->box[i], "position: box", err, errlen)) return -1;
        if (where[g->box[i]]++) FAIL("position: ticket %d is in two places", t->tid[g->box[i]]);
    }
    if (g->nbox && !t->setup_to_box) FAIL("position: a box in an edition without one");
    for (int c = 0; c < t->ncities; c++) g->station_at[c] = -1;
    for (int p = 0; p < np; p++) {
        READ(g->nstations[p], 0, t->stations_max, "position: stations built");
        for (int i = 0; i < g->nstations[p]; i++) {
            int c;
            READ(c, 0, t->ncities - 1, "position: station city");
            if (t->srank[c] < 0) FAIL("position: no station may be built in city %d", c);
            if (g->station_at[c] >= 0) FAIL("position: two stations in city %d", c);
            g->stations[p][i] = c;
            g->station_at[c] = p;
        }
    }
    READ(g->has_tunnel, 0, t->family == KF_EUROPE, "position: tunnel pending (0/1)");
    if (g->has_tunnel != (g->phase == PH_TUNNEL)) FAIL("position: a tunnel is pending exactly in its phase");
    if (g->has_tunnel) {
        int ri, x;
        READ(ri, 0, t->nroutes - 1, "position: tunnel route");
        if (!t->tunnel[ri] || g->owners[ri] >= 0) FAIL("position: route %d is not an open tunnel", t->rid[ri]);
        g->tn_route = ri;
        READ(g->tn_color, -1, t->wild - 1, "position: tunnel colour card");
        if (g->tn_color >= 0 && t->rcolor[ri] >= 0 && g->tn_color != t->rcolor[ri])
            FAIL("position: the tunnel is paid in another colour");
        READ(g->tn_k, 0, g->tn_color >= 0 ? t->rlen[ri] : 0, "position: tunnel coloured cards");
        READ(g->tn_w, 0, t->rlen[ri], "position: tunnel wilds");
        if (g->tn_k + g->tn_w != t->rlen[ri] || (g->tn_color >= 0 && !g->tn_k))
            FAIL("position: the tunnel payment does not match the route length");
        if ((g->tn_color >= 0 && g->hands[g->cur][g->tn_color] < g->tn_k) || g->hands[g->cur][t->wild] < g->tn_w)
            FAIL("position: the tunnel payment is not in the hand");
        READ(g->tn_nrev, 1, 3, "position: tunnel revealed cards");
        x = g->tn_color >= 0 ? g->tn_color : t->wild;
        int extra = 0;
        for (int i = 0; i < g->tn_nrev; i++) {
            READ(g->tn_rev[i], 0, t->ncards - 1, "position: tunnel revealed card");
            count[g->tn_rev[i]]++;
            extra += g->tn_rev[i] == t->wild || g->tn_rev[i] == x;
        }
        READ(g->tn_extra, extra, extra, "position: tunnel extra cards");
        if (!extra) FAIL("position: nothing revealed matches, no tunnel decision is due");
        READ(g->tn_x, x, x, "position: tunnel extra cards' colour");
    }
    if (t->family == KF_RS && rs_position_read(g, t, &r, err, errlen)) return -1;
    for (int c = 0; c < t->ncards; c++)
        if (count[c] != t->composition[c])
            FAIL("position: %d cards of type %d are in play, the edition has %d", count[c], c, t->composition[c]);
    if (r.i != r.n) FAIL("position: %lld ints left over", (long long)(r.n - r.i));
    if (g->phase == PH_SETUP && !g->has_setup) FAIL("position: the setup phase without the setup deal");
    if ((g->phase == PH_SETUP || g->phase == PH_KEEP) ? 0 : g->npending)
        FAIL("position: pending tickets outside a ticket choice");
    if (prefix_len < 1 || prefix_len > 80) FAIL("seed text: %d bytes, not 1 to 80", prefix_len);
    for (int i = 0; i < prefix_len; i++)
        if (prefix[i] < 0x20 || prefix[i] > 0x7e) FAIL("seed text: byte %d is not printable ASCII", i);
    memcpy(g->prefix, prefix, (size_t)prefix_len);
    g->prefix_len = prefix_len;
    return 0;
}
