/* The playout policy's bot, shared by _policy.c (its decisions) and _plan.c (its plan). */
#ifndef TTR_POLICY_H
#define TTR_POLICY_H

#include "_kernel.h"

#define ANY (KT_MAX_CARD_TYPES - 1) /* the key of a gray route's cards when no colour is held */
#define NKEYS KT_MAX_CARD_TYPES

struct KBot {
    uint64_t rng;
    int has_sig, sig[KT_MAX_PLAYERS], stale;
    int plan[KT_MAX_ROUTES], nplan;
    int alt[KT_MAX_ROUTES]; /* planned route -> the other side of its double, open too; else -1 */
    int goal[2], ngoal, has_goal_sig, goal_sig[KT_MAX_PLAYERS];
    int trains, lowest, done;
    int ships; /* Rails & Sails: ships in supply (trains: trains); 0 elsewhere */
    int touch_valid, ntouch, touch[KT_MAX_CITIES]; /* Rails & Sails: the harbor sites, by name (_touch) */
    int pieces_of[KT_MAX_PLAYERS], has_pieces_of;
    int *path_off, *path_n; /* per ticket index: its path in pool (path_n -1: none) */
    int *pool[2], which, cap;
};

/* a ticket's path: every leg of a tour, one after the other (KT_MAX_TOUR - 1 legs) */
#define KP_PATH_MAX ((KT_MAX_TOUR - 1) * KT_MAX_CITIES)

/* _plan.c (playout/plan.py) */
int kp_ticket_path(const KTables *t, const int *cost, int ti, int *out, int *nout); /* _legs: cars, or KT_INF */
void kp_static_routes(const KTables *t, int ti, unsigned char *in);                 /* marks its legs' routes */
void kp_needs(const KBot *b, const KTables *t, const int *have, const int *routes, int nr, int *need);
void kp_costs(const KGame *g, const KTables *t, int me, int *cost);
void kp_check(KBot *b, const KGame *g, const KTables *t, int me); /* keep the plan up to date */

/* _rs_policy.c: Rails & Sails' own decisions (a turn, a draw, the setup split) */
int kp_rs_turn(KBot *b, const KGame *g, const KTables *t, KMove *out);
int kp_rs_draw(KBot *b, const KGame *g, const KTables *t, int second, KMove *out);
int kp_rs_split(const KGame *g, const KTables *t, KMove *out);

#endif
