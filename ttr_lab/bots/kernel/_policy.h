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
    int pieces_of[KT_MAX_PLAYERS], has_pieces_of;
    int *path_off, *path_n; /* per ticket index: its path in pool (path_n -1: none) */
    int *pool[2], which, cap;
};

/* _plan.c (playout/plan.py) */
void kp_needs(const KBot *b, const KTables *t, const int *have, const int *routes, int nr, int *need);
void kp_costs(const KGame *g, const KTables *t, int me, int *cost);
void kp_check(KBot *b, const KGame *g, const KTables *t, int me); /* keep the plan up to date */

#endif
