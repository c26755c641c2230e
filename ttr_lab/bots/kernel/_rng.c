/* Random generators of the kernel, each the same as its Python twin.
 *
 * splitmix64 (Steele, Lea and Flood, 2014; Vigna's reference code): the
 * playout policy's generator, ttr_lab/bots/kernel/rng.py's SplitMix64.
 *
 * MT19937 seeded as CPython's random.Random is seeded, and its shuffle and
 * randrange: the engine shuffles a pile with random.Random(f"ttr_lab:{seed}:{k}")
 * (ttr_lab/engine/rules/decks.py), and the random bot draws with random.Random(seed).
 * A text seed is the integer of its bytes followed by their SHA-512 digest
 * (random.seed, version 2), so SHA-512 (FIPS 180-4) is here too.
 */
#include <string.h>

#include "_kernel.h"

/* ------------------------------------------------------------------ splitmix64 */
uint64_t splitmix_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double splitmix_random(uint64_t *state) {
    /* the top 53 bits, exactly representable: the same double as Python's */
    return (double)(splitmix_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t splitmix_below(uint64_t *state, uint64_t n) {
    /* rejection from the top: draws below the largest multiple of n */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = splitmix_next(state);
    } while (x >= limit);
    return x % n;
}

/* ------------------------------------------------------------------ MT19937 (CPython's _randommodule.c) */
#define MT_N 624
#define MT_M 397

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE static __forceinline
#else
#define ALWAYS_INLINE static inline
#endif

/* init_genrand(19650218) then init_by_array for count generators at once (keys of 1 to 624
 * words), each chain's last value in a local (count is a constant where this is inlined): the
 * constant start is computed alongside the first mixing pass, and the generators side by side,
 * so the serial chains overlap in the processor. */
ALWAYS_INLINE void seed_chains(KMT *ms, const uint32_t *const *keys, const int *ns, const int count) {
    uint32_t prev[KT_MAX_PLAYERS], start = 19650218U;
    int j[KT_MAX_PLAYERS];
    for (int c = 0; c < count; c++) {
        prev[c] = start; /* mt[0] */
        j[c] = 0;
    }
    for (int i = 1; i < MT_N; i++) { /* the first pass, k = 1 .. 623 (mt[i] is still init_genrand's) */
        start = 1812433253U * (start ^ (start >> 30)) + (uint32_t)i;
        for (int c = 0; c < count; c++) {
            uint32_t x = (start ^ ((prev[c] ^ (prev[c] >> 30)) * 1664525U)) + keys[c][j[c]] + (uint32_t)j[c];
            ms[c].mt[i] = prev[c] = x;
            j[c] = j[c] + 1 == ns[c] ? 0 : j[c] + 1;
        }
    }
    for (int c = 0; c < count; c++) { /* k = 624: i wraps to 1 */
        uint32_t *mt = ms[c].mt, m0 = mt[MT_N - 1];
        prev[c] = (mt[1] ^ ((m0 ^ (m0 >> 30)) * 1664525U)) + keys[c][j[c]] + (uint32_t)j[c];
        mt[1] = prev[c];
    }
    for (int i = 2; i < MT_N; i++) /* the second pass, from i = 2 */
        for (int c = 0; c < count; c++) {
            uint32_t x = (ms[c].mt[i] ^ ((prev[c] ^ (prev[c] >> 30)) * 1566083941U)) - (uint32_t)i;
            ms[c].mt[i] = prev[c] = x;
        }
    for (int c = 0; c < count; c++) {
        uint32_t *mt = ms[c].mt, m0 = mt[MT_N - 1];
        mt[1] = (mt[1] ^ ((m0 ^ (m0 >> 30)) * 1566083941U)) - 1U;
        mt[0] = 0x80000000U;
        ms[c].mti = 0;
    }
}

static void mt_seed_chains(KMT *ms, int count, const uint32_t *const *keys, const int *ns) {
    switch (count) {
        case 1:
            seed_chains(ms, keys, ns, 1);
            break;
        case 2:
            seed_chains(ms, keys, ns, 2);
            break;
        case 3:
            seed_chains(ms, keys, ns, 3);
            break;
        case 4:
            seed_chains(ms, keys, ns, 4);
            break;
        default:
            seed_chains(ms, keys, ns, 5);
    }
}

/* random.Random's init_by_array: a key of 1 to 624 words (a seed of at most 320 bytes is 80) */
void mt_seed_words(KMT *m, const uint32_t *key, int n) { mt_seed_chains(m, 1, &key, &n); }

/* genrand_uint32, each word regenerated when it is drawn (not all 624 at once): word kk's new
 * value reads the old words kk and kk + 1 and word kk + 397 (mod 624), which is old below 227
 * and already new from there on, as in the batch; a generator that draws a hundred words (a
 * shuffle) makes a hundred.  mti: the next word. */
static uint32_t mt_next(KMT *m) {
    uint32_t *mt = m->mt;
    int kk = m->mti, k1 = kk + 1 == MT_N ? 0 : kk + 1, km = kk < MT_N - MT_M ? kk + MT_M : kk - (MT_N - MT_M);
    uint32_t y = (mt[kk] & 0x80000000U) | (mt[k1] & 0x7fffffffU);
    y = mt[km] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    mt[kk] = y;
    m->mti = k1;
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

uint32_t mt_below(KMT *m, uint32_t n) {
    /* random.Random._randbelow_with_getrandbits: k = n.bit_length(), draws of k bits below n
     * (n = 1 draws too, until a 0) */
    if (n == 0) return 0;
#if defined(__GNUC__) || defined(__clang__)
    int k = 32 - __builtin_clz(n);
#else
    int k = 0;
    for (uint32_t v = n; v; v >>= 1) k++;
#endif
    uint32_t r;
    do {
        r = mt_next(m) >> (32 - k);
    } while (r >= n);
    return r;
}

void mt_shuffle(KMT *m, int *x, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mt_below(m, (uint32_t)i + 1);
        int tmp = x[i];
        x[i] = x[j];
        x[j] = tmp;
    }
}

/* ------------------------------------------------------------------ SHA-512 */
static const uint64_t K512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
    0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
    0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
    0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
    0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
    0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
    0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
    0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
    0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};

#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static void sha512_block(uint64_t h[8], const unsigned char *p) {
    uint64_t w[80];
    for (int i = 0; i < 16; i++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) v = (v << 8) | p[8 * i + b];
        w[i] = v;
    }
    for (int i = 16; i < 80; i++) {
        uint64_t s0 = ROR64(w[i - 15], 1) ^ ROR64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = ROR64(w[i - 2], 19) ^ ROR64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 80; i++) {
        uint64_t S1 = ROR64(e, 14) ^ ROR64(e, 18) ^ ROR64(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = hh + S1 + ch + K512[i] + w[i];
        uint64_t S0 = ROR64(a, 28) ^ ROR64(a, 34) ^ ROR64(a, 39);
        uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = S0 + maj;
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

/* text of at most 256 bytes -> its 64-byte digest */
static void sha512(const unsigned char *text, int len, unsigned char out[64]) {
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                     0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    unsigned char buf[128 * 3];
    int full = len / 128;
    for (int i = 0; i < full; i++) sha512_block(h, text + 128 * i);
    int rest = len - 128 * full;
    int blocks = rest + 17 <= 128 ? 1 : 2;
    memset(buf, 0, sizeof buf);
    memcpy(buf, text + 128 * full, (size_t)rest);
    buf[rest] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int b = 0; b < 8; b++) buf[128 * blocks - 1 - b] = (unsigned char)(bits >> (8 * b));
    for (int i = 0; i < blocks; i++) sha512_block(h, buf + 128 * i);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 8; b++) out[8 * i + b] = (unsigned char)(h[i] >> (56 - 8 * b));
}

/* the integer n of these bytes (big-endian) as random.seed reads it: its 32-bit words from the lowest */
static int seed_words(const unsigned char *all, int total, uint32_t *key) {
    if (total < 0 || total > 256 + 64) return -1;
    int start = 0, words = 0;
    while (start < total && all[start] == 0) start++;
    if (start == total) {
        key[0] = 0;
        return 1;
    }
    for (int end = total; end > start; end -= 4) {
        uint32_t w = 0;
        for (int b = 0; b < 4 && end - 1 - b >= start; b++) w |= (uint32_t)all[end - 1 - b] << (8 * b);
        key[words++] = w;
    }
    return words;
}

/* random.Random(n) for the integer n of these bytes */
int mt_seed_bytes(KMT *m, const unsigned char *all, int total) {
    return mt_seed_bytes_many(m, 1, &all, &total);
}

/* the same for count (at most KT_MAX_PLAYERS) generators at once */
int mt_seed_bytes_many(KMT *ms, int count, const unsigned char *const *all, const int *totals) {
    uint32_t key[KT_MAX_PLAYERS][(256 + 64) / 4 + 1];
    const uint32_t *keys[KT_MAX_PLAYERS];
    int ns[KT_MAX_PLAYERS];
    if (count < 1 || count > KT_MAX_PLAYERS) return -1;
    for (int c = 0; c < count; c++) {
        ns[c] = seed_words(all[c], totals[c], key[c]);
        if (ns[c] < 0) return -1;
        keys[c] = key[c];
    }
    mt_seed_chains(ms, count, keys, ns);
    return 0;
}

/* random.Random(text): the integer of text + sha512(text) (random.seed, version 2).
 * Returns -1 if the text is too long (at most 256 bytes). */
int mt_seed_text(KMT *m, const char *text, int len) {
    unsigned char all[256 + 64];
    if (len < 0 || len > 256) return -1;
    memcpy(all, text, (size_t)len);
    sha512((const unsigned char *)text, len, all + len);
    return mt_seed_bytes(m, all, len + 64);
}
