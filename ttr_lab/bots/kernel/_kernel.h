/* The compiled playout kernel of ttr_lab: shared declarations.
 *
 * The kernel is a second implementation of the rules of two families of
 * editions (the USA family: USA, 1910, Mega Game, Big Cities; Europe: its
 * tunnels, ferries, stations and long tickets; Rails & Sails, World and Great
 * Lakes: train and ship piles, harbors, tours, the piece split and exchanges,
 * being ported: run.EDITIONS names the refereed ones) and of two
 * policies (the playout policy, ttr_lab/bots/playout*.py, and the random bot),
 * checked move for move against the Python engine (tests/test_kernel*.py).
 * It reads an edition and a position only as flat int32 arrays built in
 * Python (ttr_lab/bots/kernel/convert.py documents the layouts) and validated
 * here before any work (kt_tables_read, kg_read): a malformed array is a
 * ValueError naming the field, which Python turns into a TtrError.
 *
 * No global mutable state: an edition's tables are immutable once read,
 * and every playout works on its own game, bots and scratch memory.
 */
#ifndef TTR_KERNEL_H
#define TTR_KERNEL_H

#include <stdint.h>

#define KT_MAGIC_TABLES 0x54545231 /* "TTR1" */
#define KT_MAGIC_STATE 0x54545253  /* "TTRS" */
#define KT_VERSION 4

/* rules families */
#define KF_USA 1
#define KF_EUROPE 2
#define KF_RS 3 /* Rails & Sails (World, Great Lakes) */

#define KT_MAX_PLAYERS 5
#define KT_MAX_CARD_TYPES 32 /* 25 in Rails & Sails; the count loops run over all 32 (16-bit lanes) */
#define KT_MAX_CITIES 128
#define KT_MAX_ROUTES 256
#define KT_MAX_TICKETS 512       /* a seat's tickets, the ticket deck */
#define KT_MAX_TABLE_TICKETS 400 /* an edition's: a malformed setup deal can add 5 x 8 copies */
#define KT_MAX_TICKET_ID 100000
#define KT_MAX_CARDS 512
#define KT_MAX_ROW 8
#define KT_MAX_PILES 2 /* card piles: Rails & Sails has a train pile and a ship pile */
#define KT_MAX_PENDING 8
#define KT_MAX_LENGTH 9 /* Rails & Sails has routes of 9 */
#define KT_MAX_PIECES 200
#define KT_MAX_SCORE 100000
#define KT_MAX_STATIONS 3
#define KT_MAX_HARBORS 3   /* Rails & Sails: harbors per player */
#define KT_MAX_TOUR 8      /* cities on a ticket (a tour: 3 or more) */
#define KT_MAX_COLORS 6    /* Rails & Sails: colours of cards (4 bits each in a 24-bit field of a move) */
#define KT_INF 0x3fffffff /* no path */

/* phases, as ttr_lab.engine.phases.Phase numbers them */
#define PH_SETUP 0
#define PH_TURN 1
#define PH_SECOND 2
#define PH_KEEP 3
#define PH_TUNNEL 4 /* Europe: pay a tunnel's extra cards or decline */
#define PH_PIECES 5 /* Rails & Sails: each seat splits its pieces into trains and ships (SETUP_PIECES) */
#define PH_OVER 9

/* moves, as recorded: kind, a, b, c */
#define MV_PASS 0
#define MV_FACEUP 1 /* a: slot (1-based) */
#define MV_BLIND 2
#define MV_STOP 3
#define MV_CLAIM 4   /* a: route index, b: colour card (-1: wilds only), c: coloured cards; wilds = length - c */
#define MV_TICKETS 5
#define MV_KEEP 6 /* a: bit mask over the pending tickets (their order in the position) */
#define MV_STATION 7 /* a: city, b: colour card (-1: wilds only), c: coloured cards; wilds = station number - c */
#define MV_TPAY 8    /* a: cards of the tunnel's colour, b: wilds */
#define MV_TDECLINE 9
/* Rails & Sails: a face-up pick names the pile refilling its slot (MV_FACEUP b: pile), a blind
 * draw its pile (MV_BLIND a: pile).  A claim (MV_CLAIM) is a: route, b: the first cards, c: the
 * second cards | wilds << 24, where the first and second cards are counts per colour, 4 bits
 * each (colour k at bits 4k: RS_PUT, RS_GET): plain and anchor train cards for a train or paired
 * route, single and double ship cards for a ship route */
#define MV_HARBOR 10   /* a: city, b: anchor train cards, c: single ship cards | wilds << 24 (as a claim) */
#define MV_PIECES 11   /* a: trains (the rest of the pieces are ships) */
#define MV_EXCHANGE 12 /* a: 0 take trains from the box (ships back), 1 take ships; b: how many */
#define RS_PUT(color, k) ((k) << 4 * (color))
#define RS_GET(x, color) ((x) >> 4 * (color) & 15)
#define RS_WILDS(c) ((c) >> 24 & 0x7f)
#define RS_PLAIN 0 /* Rails & Sails' card types: plain trains, anchor trains, single ships, */
#define RS_ANCHOR 1 /* double ships (colour + ncolors * kind), then the wild */
#define RS_SHIP1 2
#define RS_SHIP2 3
#define RS_CARD(t, j, color) ((color) + (t)->ncolors * (j))

typedef struct {
    int kind, a, b, c;
} KMove;

#if defined(__GNUC__) || defined(__clang__)
#define KT_CTZ64(x) __builtin_ctzll(x)
#else
static inline int KT_CTZ64(uint64_t x) { /* x != 0 */
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* ------------------------------------------------------------------ the edition's tables */
typedef struct {
    int family; /* KF_USA, KF_EUROPE, KF_RS */
    int ncities, nroutes, ncards, wild, nticket;
    int row_size, pieces, end_threshold, final_turns, double_min;
    int setup_deal, setup_keep, draw_k, draw_keep;
    int lp_bonus, gt_bonus, tiebreak_path, max_resets, deal_row_late, single_draw;
    int maxlen;
    int points[KT_MAX_LENGTH + 1];
    int inverse[KT_MAX_LENGTH * 20 + 1]; /* points -> length, 0 if none or ambiguous */
    int max_points;
    int composition[KT_MAX_CARD_TYPES];
    int name_rank[KT_MAX_CARD_TYPES]; /* alphabetical rank of the card names (payment order) */
    int npiles, row_split[KT_MAX_PILES]; /* card piles; each pile's share of the row, in pile order */
    int card_pile[KT_MAX_CARD_TYPES];    /* the pile a card is discarded to */
    int slot_pile[KT_MAX_ROW];           /* a row slot's home pile (refilled from it) */
    int total_cards;
    /* routes, by index (ids increasing) */
    int rid[KT_MAX_ROUTES], ra[KT_MAX_ROUTES], rb[KT_MAX_ROUTES], rlen[KT_MAX_ROUTES];
    int rcolor[KT_MAX_ROUTES], partner[KT_MAX_ROUTES];
    int minw[KT_MAX_ROUTES];   /* a ferry's locomotive spaces: wilds every payment includes */
    int tunnel[KT_MAX_ROUTES]; /* 1: a tunnel (three cards revealed at a claim) */
    int ferry[KT_MAX_ROUTES], nferry; /* the routes with minw > 0 */
    /* stations (Europe): per player, points per station left; per city its rank among the
     * cities a station may be built in (by name; -1: none there), and the cities by that rank */
    int stations_max, station_points, setup_to_box;
    int srank[KT_MAX_CITIES], scity[KT_MAX_CITIES], nscity;
    int by_length[KT_MAX_ROUTES]; /* route indices, longest first, then by index */
    /* adjacency lists, in route order: city -> (other city, route) */
    int adj_start[KT_MAX_CITIES + 1];
    int adj_city[2 * KT_MAX_ROUTES], adj_route[2 * KT_MAX_ROUTES];
    /* tickets, by index */
    int tid[KT_MAX_TICKETS], ta[KT_MAX_TICKETS], tb[KT_MAX_TICKETS], tpoints[KT_MAX_TICKETS], tpenalty[KT_MAX_TICKETS];
    int *ticket_of_id; /* id -> index or -1, KT_MAX_TICKET_ID + 1 entries */
    /* ---- Rails & Sails (family KF_RS; zero otherwise) */
    int harbor_wilds, tour_order, tiebreak_tickets; /* options: wilds pay harbors; 0 trail, 1 simple_path,
                                                       2 walk; ties broken by completed tickets */
    int total_pieces, train_max, ship_max, train_lo, train_hi; /* pieces played; per colour in the box; the split */
    int harbors_max, harbor_points[4], harbor_penalty; /* harbor_points[k]: k completed tickets (3: 3 or more) */
    int ncolors;                                       /* card colours (6): the card types are 4 * ncolors + wild */
    int ckind[KT_MAX_CARD_TYPES];   /* 0 train, 1 ship, 2 wild */
    int ccolor[KT_MAX_CARD_TYPES];  /* colour index, -1 the wild */
    int cvalue[KT_MAX_CARD_TYPES];  /* spaces a card covers (a double ship 2) */
    int canchor[KT_MAX_CARD_TYPES]; /* bears the harbor symbol (the wild does) */
    int rkind[KT_MAX_ROUTES]; /* 0 a train route, 1 a ship route (ships, ship cards), 2 paired (2L train cards in pairs) */
    int rclass[KT_MAX_ROUTES], nclass, class_route[KT_MAX_ROUTES]; /* routes of one (kind, colour, length) pay alike:
                                                                     each route's class, a route of each class */
    int route_harbors[KT_MAX_ROUTES][2]; /* its ends' harbor ranks (-1: not a harbor city) */
    int hrank[KT_MAX_CITIES]; /* a city's rank by name among the harbor cities (-1: none) */
    int hcity[KT_MAX_CITIES], nhcity; /* the harbor cities by that rank */
    /* every ticket as a list of cities (two, or a tour's 3 or more, in printed order) */
    int tncity[KT_MAX_TICKETS], tcity[KT_MAX_TICKETS][KT_MAX_TOUR];
    int tany[KT_MAX_TICKETS];    /* a tour's points in any order (0 for two cities) */
    int tfailed[KT_MAX_TICKETS]; /* a tour's points when failed (negative; -penalty for two cities) */
    /* the cheapest path on the empty board between every two cities */
    int *static_len;  /* ncities * ncities: cars */
    int *static_off;  /* ncities * ncities: offset into static_pool */
    int *static_n;    /* ncities * ncities: routes */
    int *static_pool;
} KTables;

/* ------------------------------------------------------------------ a game */
typedef struct {
    int n, phase, cur, first, turn, final_, passes, resets, shuffles;
    int claims, last_claim; /* routes claimed since the position was read, the last one (the random bot follows) */
    int row[KT_MAX_ROW];
    int hands[KT_MAX_PLAYERS][KT_MAX_CARD_TYPES];
    int owners[KT_MAX_ROUTES];
    int pieces[KT_MAX_PLAYERS], scores[KT_MAX_PLAYERS];
    int deck[KT_MAX_PILES][KT_MAX_CARDS], ndeck[KT_MAX_PILES]; /* per pile, bottom to top */
    int disc[KT_MAX_PILES][KT_MAX_CARDS], ndisc[KT_MAX_PILES];
    int tickets[KT_MAX_PLAYERS][KT_MAX_TICKETS], ntickets[KT_MAX_PLAYERS]; /* ticket indices */
    int pending[KT_MAX_PENDING], npending;
    int setup[KT_MAX_PLAYERS][KT_MAX_PENDING], nsetup[KT_MAX_PLAYERS], has_setup;
    int tdeck[KT_MAX_TICKETS], ntdeck; /* bottom to top */
    int box[KT_MAX_TICKETS], nbox;     /* Europe: tickets out of the game */
    int stations[KT_MAX_PLAYERS][KT_MAX_STATIONS], nstations[KT_MAX_PLAYERS]; /* cities, in building order */
    int station_at[KT_MAX_CITIES];                                          /* seat, or -1 */
    /* a pending tunnel (phase PH_TUNNEL): route, the claim's colour card (-1: wilds only), its
     * coloured cards and wilds (still in the hand), the revealed cards, the extra cards due and
     * their colour card (the wild if the claim was wilds only) */
    int has_tunnel, tn_route, tn_color, tn_k, tn_w, tn_rev[3], tn_nrev, tn_extra, tn_x;
    /* Rails & Sails: trains are pieces[]; ships in supply, each seat's trains and ships in the box,
     * its secret split (-1 until chosen), pieces exchanged, harbors (cities in building order) */
    int ships[KT_MAX_PLAYERS], tbox[KT_MAX_PLAYERS], sbox[KT_MAX_PLAYERS], choice[KT_MAX_PLAYERS];
    int exchanged[KT_MAX_PLAYERS];
    int harbors[KT_MAX_PLAYERS][KT_MAX_HARBORS], nharbors[KT_MAX_PLAYERS];
    int harbor_at[KT_MAX_CITIES]; /* seat, or -1 */
    /* the game's seed as its shuffles name it: "ttr_lab:<seed>:" */
    char prefix[96];
    int prefix_len;
} KGame;

/* ------------------------------------------------------------------ generators (_rng.c) */
typedef struct {
    uint32_t mt[624];
    int mti; /* the next word to regenerate and draw */
} KMT;

uint64_t splitmix_next(uint64_t *state);
double splitmix_random(uint64_t *state);
uint64_t splitmix_below(uint64_t *state, uint64_t n);
void mt_seed_words(KMT *m, const uint32_t *key, int n);
int mt_seed_bytes(KMT *m, const unsigned char *all, int total);
int mt_seed_bytes_many(KMT *ms, int count, const unsigned char *const *all, const int *totals);
int mt_seed_text(KMT *m, const char *text, int len);
uint32_t mt_below(KMT *m, uint32_t n);
void mt_shuffle(KMT *m, int *x, int n);

/* ------------------------------------------------------------------ reading (_read.c) */
/* each returns 0, or -1 with a message in err (the field and what is wrong) */
int kt_tables_read(KTables *t, const int32_t *a, int64_t n, char *err, int errlen);
void kt_tables_free(KTables *t);
int kg_read(KGame *g, const KTables *t, const int32_t *a, int64_t n, const char *prefix, int prefix_len, char *err,
            int errlen);

int kt_path(const KTables *t, const int *cost, int a, int b, int *out, int *nout);

/* ------------------------------------------------------------------ the rules (_engine.c) */
int kg_shuffle_deck(KGame *g, int pile); /* the pile's discard becomes its deck (A2); returns the new deck size */
int kg_take(KGame *g, int pile);         /* the top card of the pile's deck (reshuffling), -1 if none */
int kg_any_cards(const KGame *g, const KTables *t); /* a card to draw in some pile */
void kg_discard(KGame *g, const KTables *t, const int *cards, int n); /* to the discard, then the row check */
void kg_pay(KGame *g, const KTables *t, int color, int k, int w);     /* in the move's order (card names) */
void kg_complete_claim(KGame *g, const KTables *t, int ri);
void kg_action_done(KGame *g, const KTables *t);
void kg_end_turn(KGame *g, const KTables *t);   /* turns.py end_turn: the final round, all passed, the next seat */
void kg_start_play(KGame *g, const KTables *t); /* the row dealt late (C3), the first player's turn */
void kg_apply(KGame *g, const KTables *t, const KMove *m);
int kg_route_open_to(const KGame *g, const KTables *t, int ri, int p);
/* the payments of L cards of colour (-1: any) with at least minw wilds, sorted as the engine
 * sorts them, as MV_CLAIM moves of route ri; out holds ncards * maxlen + 1 */
int kg_pay_list(const KTables *t, const int *hand, int ri, int L, int color, int minw, KMove *out);
int kg_payments(const KTables *t, const int *hand, int ri, KMove *out); /* sorted; out holds ncards * maxlen + 1 */
int kg_pay_count(const KTables *t, const int *hand, int L, int color, int minw);
int kg_draws_list(const KGame *g, const KTables *t, KMove *list); /* list holds KT_MAX_ROW + 2 */
int kg_keeps(const KGame *g, const KTables *t, int *out);
int kg_legal_count(const KGame *g, const KTables *t);
int kg_first_legal(const KGame *g, const KTables *t, KMove *out);

/* ------------------------------------------------------------------ Europe (_europe.c) */
void ke_claim_tunnel(KGame *g, const KTables *t, const KMove *m); /* the reveal, and the claim or the decision */
void ke_pay_tunnel(KGame *g, const KTables *t, const KMove *m);
void ke_decline_tunnel(KGame *g, const KTables *t);
int ke_tunnel_moves(const KGame *g, const KTables *t, KMove *out); /* the payments, then declining; out holds 9 */
void ke_build_station(KGame *g, const KTables *t, const KMove *m);
int ke_station_ways(const KGame *g, const KTables *t); /* payments of the next station (the same in every city) */
int ke_station_cities(const KGame *g, const KTables *t); /* cities without a station */
int ke_station_move(const KGame *g, const KTables *t, int i, KMove *out); /* the i-th station move */
/* the stations' borrowed routes at the end (C11, C12): returns the ticket points, sets each
 * ticket's completion (by position) and the count */
int ke_borrow(const KGame *g, const KTables *t, int p, int *up, unsigned char *done, int *completed);

/* ------------------------------------------------------------------ Rails & Sails (_rs_pay.c, _rs_engine.c) */
#define RS_KEY 32 /* a payment's sort key: (name rank + 1, count) bytes per card, zero-padded */
#define RS_MAX_DRAWS (2 * KT_MAX_ROW + KT_MAX_PILES + 1) /* face-up picks per refill pile, blind draws, stop */
typedef struct {
    unsigned char key[RS_KEY];
    KMove m;
} RSPay;
int rs_route_pays(const KTables *t, const KGame *g, int p, int ri); /* seat p's payments of route ri (0 if short of pieces) */
void rs_class_pays(const KTables *t, const KGame *g, int p, int *out); /* rs_route_pays of each route class */
int rs_harbor_count(const KTables *t, const int *hand);             /* payments of a harbor */
/* the payments in move order (out holds rs_route_pays' count; cap bounds it) */
int rs_payments(const KTables *t, const int *hand, int ri, RSPay *out, int cap);
int rs_harbor_payments(const KTables *t, const int *hand, int city, RSPay *out); /* out holds 64 */
/* a claim's or harbor's cards in name order (first: the card kind of b's counts) */
int rs_move_cards(const KTables *t, int first, const KMove *m, int *card, int *count);
void rs_pay(KGame *g, const KTables *t, const KMove *m);
int rs_draws_list(const KGame *g, const KTables *t, KMove *list); /* list holds RS_MAX_DRAWS */
int rs_route_open(const KGame *g, const KTables *t, int ri, int p); /* open to p, and p has the pieces */
int rs_harbor_sites(const KGame *g, const KTables *t, int p, int *cities); /* by name; 0 if p cannot build */
int rs_legal_walk(const KGame *g, const KTables *t, int want, KMove *out); /* as legal_walk (_legal.c) */
void rs_apply(KGame *g, const KTables *t, const KMove *m); /* a claim, harbor, split or exchange */

/* ------------------------------------------------------------------ scoring (_score.c) */
typedef struct {
    int total[KT_MAX_PLAYERS];
    int completed[KT_MAX_PLAYERS];
    int longest[KT_MAX_PLAYERS];
    int winners; /* bit mask of seats */
    uint64_t ticket_done[KT_MAX_PLAYERS][(KT_MAX_TICKETS + 63) / 64]; /* by position in the seat's tickets */
} KScore;

void kg_score(const KGame *g, const KTables *t, KScore *out);

/* ------------------------------------------------------------------ the policies (_policy.c, _random.c) */
typedef struct KBot KBot;
typedef struct {
    KBot *bots;
    int *pool; /* scratch for the bots' paths */
} KPolicyWork;

int kp_work_init(KPolicyWork *w, const KTables *t, const KGame *g, const uint64_t *seeds);
void kp_work_free(KPolicyWork *w);
int kp_choose(KPolicyWork *w, const KGame *g, const KTables *t, KMove *out);

/* the random bot's seats: their generators, and for each seat the routes open to it
 * (owners and doubles; not its pieces), as a bit set, counted by length, and counted by
 * length and colour (the routes of that colour and the gray ones) */
typedef struct {
    KMT mt[KT_MAX_PLAYERS];
    int claims; /* g->claims when the sets were made; -1: not yet */
    uint64_t open[KT_MAX_PLAYERS][KT_MAX_ROUTES / 64];
    int routes[KT_MAX_PLAYERS][KT_MAX_LENGTH + 1]; /* [seat][length] */
    int16_t payable[KT_MAX_PLAYERS][KT_MAX_LENGTH + 1][KT_MAX_CARD_TYPES]; /* [seat][length][colour]: its and gray */
} KRandom;

int kr_choose(KRandom *r, const KGame *g, const KTables *t, KMove *out);
void kr_follow(KRandom *r, const KGame *g, const KTables *t); /* the seats' open routes after the claims since */
int rs_random_choose(KRandom *r, const KGame *g, const KTables *t, KMove *out); /* Rails & Sails (_rs_engine.c) */
/* the payments of route ri (pay_lengths' counts per length, a ferry's own) */
typedef struct {
    int A, d, base, gray;
} PayLen;
void kg_pay_lengths(const KTables *t, const int *hand, int pieces, PayLen *pl);
int kg_route_pays(const KTables *t, const PayLen *pl, const int *hand, int ri);

/* ------------------------------------------------------------------ Rails & Sails scoring (_rs_score.c) */
#define KO_TRAIL 0  /* tour_order: each route at most once (C9's default) */
#define KO_SIMPLE 1 /* no city twice */
#define KO_WALK 2   /* routes reusable: joined is enough */
/* a seat's tickets and tours over its own routes (up: their union-find, changed by path halving), its
 * harbors and the pieces it exchanged (B4, C7, C9): returns the points; sets each ticket's completion
 * (by position; done may be NULL), its points (values may be NULL) and the completed count */
int krs_seat(const KGame *g, const KTables *t, int p, int *up, unsigned char *done, int *values, int *completed);
int krs_ticket_values(const KGame *g, const KTables *t, int p, int *values); /* krs_seat's values, from scratch */

#endif
