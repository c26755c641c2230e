/* Europe's tunnels (rule B3), as ttr_lab/editions/europe/tunnels.py plays them.
 *
 * A tunnel's claim turns up three cards from the deck (fewer if deck and
 * discard hold fewer; the deck reshuffles as for any draw) while the claim's
 * payment stays in the hand.  Each revealed card that is a locomotive or of
 * the claim's colour asks for one more such card (locomotives only after a
 * claim paid with locomotives only).  None: the claim is paid (the move's
 * cards by name), the reveal discarded, the route claimed.  Otherwise the
 * phase becomes PH_TUNNEL: the player pays (the claim's cards by card type,
 * then the extra cards by name, one payment; then the reveal) or declines
 * (the reveal discarded, the cards stay, the turn ends).  Ferries need no
 * code here: their locomotive spaces are the routes' minw (_engine.c).
 */
#include "_kernel.h"

void ke_claim_tunnel(KGame *g, const KTables *t, const KMove *m) {
    int ri = m->a, color = m->b, k = m->c, w = t->rlen[ri] - k;
    int x = color >= 0 ? color : t->wild, rev[3], nrev = 0, extra = 0;
    for (int i = 0; i < 3; i++) {
        int c = kg_take(g, 0); /* Europe: one pile */
        if (c < 0) break;
        rev[nrev++] = c;
        extra += c == t->wild || c == x;
    }
    if (!extra) {
        kg_pay(g, t, color, k, w);
        kg_discard(g, t, rev, nrev);
        kg_complete_claim(g, t, ri);
        return;
    }
    g->has_tunnel = 1;
    g->tn_route = ri;
    g->tn_color = color;
    g->tn_k = k;
    g->tn_w = w;
    for (int i = 0; i < nrev; i++) g->tn_rev[i] = rev[i];
    g->tn_nrev = nrev;
    g->tn_extra = extra;
    g->tn_x = x;
    g->phase = PH_TUNNEL;
    g->passes = 0;
}

void ke_pay_tunnel(KGame *g, const KTables *t, const KMove *m) {
    int p = g->cur, x = g->tn_x, use = m->a, w = m->b, cards[2 * KT_MAX_LENGTH + 3], n = 0;
    /* the claim's cards by card type (its colour, then the wild), then the extra ones by name */
    if (g->tn_color >= 0)
        for (int j = 0; j < g->tn_k; j++) cards[n++] = g->tn_color;
    for (int j = 0; j < g->tn_w; j++) cards[n++] = t->wild;
    int wild_first = x == t->wild || t->name_rank[t->wild] < t->name_rank[x];
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) == wild_first)
            for (int j = 0; j < w; j++) cards[n++] = t->wild;
        else if (x != t->wild)
            for (int j = 0; j < use; j++) cards[n++] = x;
    }
    if (g->tn_color >= 0) g->hands[p][g->tn_color] -= g->tn_k;
    g->hands[p][t->wild] -= g->tn_w + w;
    if (x != t->wild) g->hands[p][x] -= use;
    g->has_tunnel = 0;
    kg_discard(g, t, cards, n);
    kg_discard(g, t, g->tn_rev, g->tn_nrev);
    kg_complete_claim(g, t, g->tn_route);
}

void ke_decline_tunnel(KGame *g, const KTables *t) {
    g->has_tunnel = 0;
    kg_discard(g, t, g->tn_rev, g->tn_nrev);
    kg_action_done(g, t);
}

/* tunnel_groups: every payment of the extra cards from the hand less the claim's cards (sorted
 * as the engine sorts the moves), then declining */
int ke_tunnel_moves(const KGame *g, const KTables *t, KMove *out) {
    int free[KT_MAX_CARD_TYPES], n = 0, extra = g->tn_extra, x = g->tn_x;
    for (int c = 0; c < t->ncards; c++) free[c] = g->hands[g->cur][c];
    if (g->tn_color >= 0) free[g->tn_color] -= g->tn_k;
    free[t->wild] -= g->tn_w;
    if (x == t->wild) {
        if (free[t->wild] >= extra) out[n++] = (KMove){MV_TPAY, 0, extra, 0};
    } else {
        KMove pays[KT_MAX_CARD_TYPES * KT_MAX_LENGTH + 1];
        int k = kg_pay_list(t, free, -1, extra, x, 0, pays);
        for (int i = 0; i < k; i++) out[n++] = (KMove){MV_TPAY, pays[i].c, extra - pays[i].c, 0};
    }
    out[n++] = (KMove){MV_TDECLINE, 0, 0, 0};
    return n;
}
