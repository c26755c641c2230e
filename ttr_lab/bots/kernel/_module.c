/* ttr_lab.bots.kernel._playout: the Python face of the compiled playout kernel.
 *
 *   tables = Tables(spec)            an edition's tables (an int32 buffer, convert.py)
 *   tables.playout(position, seed_text, seeds, policy, max_plies, record)
 *   tables.score_position(position, seed_text)  the final scoring of a position as it stands (tests)
 *
 * Plays the position to the end and scores it; the GIL is released while
 * it plays (the kernel touches no Python object then).  A malformed spec or
 * position is a ValueError naming the field (ttr_lab.bots.kernel turns it into a
 * TtrError).  Helpers for the tests: mt_shuffle, splitmix.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "_kernel.h"

typedef struct {
    PyObject_HEAD KTables *t;
} TablesObject;

static int get_ints(PyObject *obj, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != 4 || !view->format || (strcmp(view->format, "i") && strcmp(view->format, "=i") &&
                                                 strcmp(view->format, "<i") && strcmp(view->format, "@i"))) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s must be an array of int32 ('i'), not format %s", what,
                     view->format ? view->format : "B");
        return -1;
    }
    return 0;
}

static PyObject *Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *spec;
    static char *kwlist[] = {"spec", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &spec)) return NULL;
    Py_buffer view;
    if (get_ints(spec, &view, "spec") < 0) return NULL;
    KTables *t = calloc(1, sizeof(KTables));
    if (!t) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    char err[200];
    int rc = kt_tables_read(t, view.buf, view.len / 4, err, sizeof err);
    PyBuffer_Release(&view);
    if (rc < 0) {
        kt_tables_free(t);
        free(t);
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (!self) {
        kt_tables_free(t);
        free(t);
        return NULL;
    }
    self->t = t;
    return (PyObject *)self;
}

static void Tables_dealloc(TablesObject *self) {
    if (self->t) {
        kt_tables_free(self->t);
        free(self->t);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

typedef struct {
    int plies, over, failed, nomem;
    KScore score;
    KMove *moves;
    int nmoves, cap;
} Run;

/* play g to the end (or max_plies moves) with the policy; no Python object is touched */
static void run(KGame *g, const KTables *t, int policy, KPolicyWork *w, KRandom *rb, int max_plies, Run *r) {
    r->plies = 0;
    while (g->phase != PH_OVER && r->plies < max_plies) {
        KMove m;
        int rc = policy == 0 ? kp_choose(w, g, t, &m) : kr_choose(rb, g, t, &m);
        if (rc < 0) {
            r->failed = 1;
            return;
        }
        if (r->moves) {
            if (r->nmoves == r->cap) {
                KMove *more = realloc(r->moves, sizeof(KMove) * (size_t)r->cap * 2);
                if (!more) {
                    r->nomem = 1;
                    return;
                }
                r->moves = more;
                r->cap *= 2;
            }
            r->moves[r->nmoves++] = m;
        }
        kg_apply(g, t, &m);
        r->plies++;
    }
    r->over = g->phase == PH_OVER;
    kg_score(g, t, &r->score);
}

static PyObject *ints_tuple(const int *v, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *final_position(const KGame *g, const KTables *t);

static PyObject *Tables_playout(TablesObject *self, PyObject *args, PyObject *kwds) {
    PyObject *position, *seeds;
    const char *prefix;
    Py_ssize_t prefix_len;
    int policy = 0, max_plies = 20000, record = 0;
    static char *kwlist[] = {"position", "seed_text", "seeds", "policy", "max_plies", "record", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oy#O|iip", kwlist, &position, &prefix, &prefix_len, &seeds,
                                     &policy, &max_plies, &record))
        return NULL;
    if (policy != 0 && policy != 1) return PyErr_Format(PyExc_ValueError, "policy is 0 or 1, not %d", policy);
    if (max_plies < 0 || max_plies > 10000000)
        return PyErr_Format(PyExc_ValueError, "max_plies is 0 to 10,000,000, not %d", max_plies);
    KTables *t = self->t;
    KGame *g = malloc(sizeof(KGame));
    if (!g) return PyErr_NoMemory();
    Py_buffer view;
    if (get_ints(position, &view, "position") < 0) {
        free(g);
        return NULL;
    }
    char err[200];
    int rc = kg_read(g, t, view.buf, view.len / 4, prefix, (int)prefix_len, err, sizeof err);
    PyBuffer_Release(&view);
    if (rc < 0) {
        free(g);
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    /* the seats' generators: splitmix64 states (the playout policy), or random.Random seeds as bytes */
    uint64_t mix[KT_MAX_PLAYERS] = {0};
    KRandom *rngs = NULL;
    const unsigned char *seed_bytes[KT_MAX_PLAYERS];
    int seed_len[KT_MAX_PLAYERS];
    if (!PyTuple_Check(seeds) || PyTuple_GET_SIZE(seeds) != g->n) {
        PyErr_Format(PyExc_ValueError, "seeds: a tuple of one seed per seat (%d)", g->n);
        free(g);
        return NULL;
    }
    if (policy == 1) {
        rngs = malloc(sizeof(KRandom));
        if (!rngs) {
            free(g);
            return PyErr_NoMemory();
        }
    }
    for (int p = 0; p < g->n; p++) {
        PyObject *s = PyTuple_GET_ITEM(seeds, p);
        if (policy == 0) {
            mix[p] = PyLong_Check(s) ? PyLong_AsUnsignedLongLongMask(s) : (uint64_t)-1;
            if (!PyLong_Check(s) || PyErr_Occurred()) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "seeds: an int per seat");
                free(g);
                return NULL;
            }
        } else {
            if (!PyBytes_Check(s) || PyBytes_GET_SIZE(s) > 256 + 64) {
                free(rngs);
                free(g);
                return PyErr_Format(PyExc_ValueError, "seeds: the bytes of a seed per seat (at most 320)");
            }
            seed_bytes[p] = (const unsigned char *)PyBytes_AS_STRING(s);
            seed_len[p] = (int)PyBytes_GET_SIZE(s);
        }
    }
    if (policy == 1) { /* the seats' generators seeded side by side (independent chains) */
        if (mt_seed_bytes_many(rngs->mt, g->n, seed_bytes, seed_len) < 0) {
            free(rngs);
            free(g);
            return PyErr_Format(PyExc_ValueError, "seeds: the bytes of a seed per seat (at most 320)");
        }
        rngs->claims = -1;
    }
    KPolicyWork w = {NULL, NULL};
    if (policy == 0 && kp_work_init(&w, t, g, mix) < 0) {
        free(g);
        return PyErr_NoMemory();
    }
    Run r;
    memset(&r, 0, sizeof r);
    if (record) {
        r.cap = 256;
        r.moves = malloc(sizeof(KMove) * (size_t)r.cap);
        if (!r.moves) {
            kp_work_free(&w);
            free(rngs);
            free(g);
            return PyErr_NoMemory();
        }
    }
    Py_BEGIN_ALLOW_THREADS
    run(g, t, policy, &w, rngs, max_plies, &r);
    Py_END_ALLOW_THREADS
    kp_work_free(&w);
    free(rngs);
    PyObject *out = NULL;
    if (r.nomem) {
        PyErr_NoMemory();
    } else if (r.failed) {
        PyErr_SetString(PyExc_RuntimeError, "the policy found no move");
    } else {
        int n = g->n, winners[KT_MAX_PLAYERS], nw = 0;
        for (int p = 0; p < n; p++)
            if (r.score.winners >> p & 1) winners[nw++] = p;
        PyObject *done = PyTuple_New(n); /* per seat: (ticket id, completed) for each kept ticket */
        for (int p = 0; done && p < n; p++) {
            PyObject *seat = PyTuple_New(g->ntickets[p]);
            if (!seat) {
                Py_CLEAR(done);
                break;
            }
            PyTuple_SET_ITEM(done, p, seat);
            for (int i = 0; i < g->ntickets[p]; i++) {
                int hit = (int)(r.score.ticket_done[p][i / 64] >> (i % 64) & 1);
                PyObject *id = PyLong_FromLong(t->tid[g->tickets[p][i]]);
                PyObject *pair = id ? PyTuple_Pack(2, id, hit ? Py_True : Py_False) : NULL;
                Py_XDECREF(id);
                if (!pair) {
                    Py_CLEAR(done);
                    break;
                }
                PyTuple_SET_ITEM(seat, i, pair);
            }
        }
        PyObject *moves = record ? PyBytes_FromStringAndSize((const char *)r.moves, sizeof(KMove) * r.nmoves)
                                 : (Py_INCREF(Py_None), Py_None);
        PyObject *final = record ? final_position(g, t) : (Py_INCREF(Py_None), Py_None);
        if (done && moves && final)
            out = Py_BuildValue("(iiNNNNNNN)", r.plies, r.over, ints_tuple(r.score.total, n), ints_tuple(winners, nw),
                                ints_tuple(r.score.completed, n), ints_tuple(r.score.longest, n), done, moves, final);
        else {
            Py_XDECREF(done);
            Py_XDECREF(moves);
            Py_XDECREF(final);
        }
    }
    free(r.moves);
    free(g);
    return out;
}

/* score a position as it stands (the final scoring, for the tests): (totals, winners, completed,
 * per seat ((ticket id, completed, points), ...) for each kept ticket) */
static PyObject *Tables_score_position(TablesObject *self, PyObject *args, PyObject *kwds) {
    PyObject *position;
    const char *prefix;
    Py_ssize_t prefix_len;
    static char *kwlist[] = {"position", "seed_text", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oy#", kwlist, &position, &prefix, &prefix_len)) return NULL;
    KTables *t = self->t;
    KGame *g = malloc(sizeof(KGame));
    KScore *sc = malloc(sizeof(KScore));
    if (!g || !sc) {
        free(g);
        free(sc);
        return PyErr_NoMemory();
    }
    Py_buffer view;
    char err[200];
    int rc = get_ints(position, &view, "position");
    if (rc == 0) {
        rc = kg_read(g, t, view.buf, view.len / 4, prefix, (int)prefix_len, err, sizeof err);
        PyBuffer_Release(&view);
        if (rc < 0) PyErr_SetString(PyExc_ValueError, err);
    }
    PyObject *out = NULL;
    if (rc == 0) {
        int n = g->n, winners[KT_MAX_PLAYERS], nw = 0;
        kg_score(g, t, sc);
        for (int p = 0; p < n; p++)
            if (sc->winners >> p & 1) winners[nw++] = p;
        PyObject *seats = PyTuple_New(n);
        for (int p = 0; seats && p < n; p++) {
            int values[KT_MAX_TICKETS];
            if (t->family == KF_RS) krs_ticket_values(g, t, p, values);
            PyObject *seat = PyTuple_New(g->ntickets[p]);
            if (!seat) {
                Py_CLEAR(seats);
                break;
            }
            PyTuple_SET_ITEM(seats, p, seat);
            for (int i = 0; i < g->ntickets[p]; i++) {
                int ti = g->tickets[p][i], hit = (int)(sc->ticket_done[p][i / 64] >> (i % 64) & 1);
                int v = t->family == KF_RS ? values[i] : hit ? t->tpoints[ti] : -t->tpenalty[ti];
                PyObject *item = Py_BuildValue("(iOi)", t->tid[ti], hit ? Py_True : Py_False, v);
                if (!item) {
                    Py_CLEAR(seats);
                    break;
                }
                PyTuple_SET_ITEM(seat, i, item);
            }
        }
        if (seats)
            out = Py_BuildValue("(NNNN)", ints_tuple(sc->total, n), ints_tuple(winners, nw),
                                ints_tuple(sc->completed, n), seats);
    }
    free(sc);
    free(g);
    return out;
}

/* the position after the playout, in the layout it was read in (for the referee tests) */
static PyObject *final_position(const KGame *g, const KTables *t) {
    int n = g->n, size = 11 + t->row_size + n * t->ncards + t->nroutes + 2 * n + n +
                         1 + g->npending + 1 + 1 + g->ntdeck;
    for (int p = 0; p < n; p++) size += g->ntickets[p] + (g->has_setup ? 1 + g->nsetup[p] : 0);
    for (int q = 0; q < t->npiles; q++) size += 2 + g->ndeck[q] + g->ndisc[q];
    size += 1 + g->nbox + 1 + (g->has_tunnel ? 5 + g->tn_nrev + 2 : 0);
    for (int p = 0; p < n; p++) size += 1 + g->nstations[p];
    if (t->family == KF_RS)
        for (int p = 0; p < n; p++) size += 6 + g->nharbors[p];
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size * 4);
    if (!b) return NULL;
    int32_t *o = (int32_t *)PyBytes_AS_STRING(b);
    int k = 0;
    int head[11] = {KT_MAGIC_STATE, KT_VERSION, n,         g->phase,  g->cur,     g->first,
                    g->turn,        g->final_,  g->passes, g->resets, g->shuffles};
    for (int i = 0; i < 11; i++) o[k++] = head[i];
    for (int i = 0; i < t->row_size; i++) o[k++] = g->row[i];
    for (int p = 0; p < n; p++)
        for (int c = 0; c < t->ncards; c++) o[k++] = g->hands[p][c];
    for (int i = 0; i < t->nroutes; i++) o[k++] = g->owners[i];
    for (int p = 0; p < n; p++) o[k++] = g->pieces[p];
    for (int p = 0; p < n; p++) o[k++] = g->scores[p];
    for (int q = 0; q < t->npiles; q++) {
        o[k++] = g->ndeck[q];
        for (int i = 0; i < g->ndeck[q]; i++) o[k++] = g->deck[q][i];
    }
    for (int q = 0; q < t->npiles; q++) {
        o[k++] = g->ndisc[q];
        for (int i = 0; i < g->ndisc[q]; i++) o[k++] = g->disc[q][i];
    }
    for (int p = 0; p < n; p++) {
        o[k++] = g->ntickets[p];
        for (int i = 0; i < g->ntickets[p]; i++) o[k++] = t->tid[g->tickets[p][i]];
    }
    o[k++] = g->npending;
    for (int i = 0; i < g->npending; i++) o[k++] = t->tid[g->pending[i]];
    o[k++] = g->has_setup;
    if (g->has_setup)
        for (int p = 0; p < n; p++) {
            o[k++] = g->nsetup[p];
            for (int i = 0; i < g->nsetup[p]; i++) o[k++] = t->tid[g->setup[p][i]];
        }
    o[k++] = g->ntdeck;
    for (int i = 0; i < g->ntdeck; i++) o[k++] = t->tid[g->tdeck[i]];
    o[k++] = g->nbox;
    for (int i = 0; i < g->nbox; i++) o[k++] = t->tid[g->box[i]];
    for (int p = 0; p < n; p++) {
        o[k++] = g->nstations[p];
        for (int i = 0; i < g->nstations[p]; i++) o[k++] = g->stations[p][i];
    }
    o[k++] = g->has_tunnel;
    if (g->has_tunnel) {
        int head2[5] = {g->tn_route, g->tn_color, g->tn_k, g->tn_w, g->tn_nrev};
        for (int i = 0; i < 5; i++) o[k++] = head2[i];
        for (int i = 0; i < g->tn_nrev; i++) o[k++] = g->tn_rev[i];
        o[k++] = g->tn_extra;
        o[k++] = g->tn_x;
    }
    if (t->family == KF_RS)
        for (int p = 0; p < n; p++) {
            int seat[6] = {g->ships[p], g->tbox[p], g->sbox[p], g->choice[p], g->exchanged[p], g->nharbors[p]};
            for (int i = 0; i < 6; i++) o[k++] = seat[i];
            for (int i = 0; i < g->nharbors[p]; i++) o[k++] = g->harbors[p][i];
        }
    return b;
}

/* a test entry: the playout policy's move in the position for the current seat, its bots fresh
 * (seeded with seeds; nothing applied) */
static PyObject *Tables_choose(TablesObject *self, PyObject *args) {
    PyObject *position, *seeds;
    const char *prefix;
    Py_ssize_t prefix_len;
    if (!PyArg_ParseTuple(args, "Oy#O!", &position, &prefix, &prefix_len, &PyTuple_Type, &seeds)) return NULL;
    Py_buffer view;
    if (get_ints(position, &view, "position") < 0) return NULL;
    KGame *g = malloc(sizeof(KGame));
    if (!g) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    char err[200];
    int rc = kg_read(g, self->t, view.buf, view.len / 4, prefix, (int)prefix_len, err, sizeof err);
    PyBuffer_Release(&view);
    uint64_t mix[KT_MAX_PLAYERS] = {0};
    if (rc == 0 && PyTuple_GET_SIZE(seeds) != g->n) {
        snprintf(err, sizeof err, "seeds: a tuple of one seed per seat (%d)", g->n);
        rc = -1;
    }
    for (int p = 0; rc == 0 && p < g->n; p++) {
        mix[p] = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(seeds, p));
        if (PyErr_Occurred()) {
            free(g);
            return NULL;
        }
    }
    KPolicyWork w = {NULL, NULL};
    KMove m = {0, 0, 0, 0};
    if (rc == 0 && kp_work_init(&w, self->t, g, mix) < 0) {
        free(g);
        return PyErr_NoMemory();
    }
    if (rc == 0 && g->phase != PH_OVER && kp_choose(&w, g, self->t, &m) < 0) {
        snprintf(err, sizeof err, "the policy has no move");
        rc = -1;
    }
    kp_work_free(&w);
    free(g);
    if (rc < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    return Py_BuildValue("(iiii)", m.kind, m.a, m.b, m.c);
}

static PyMethodDef Tables_methods[] = {
    {"playout", (PyCFunction)(void (*)(void))Tables_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(position, seed_text, seeds, policy=0, max_plies=20000, record=False) -> (plies, over, totals, "
     "winners, completed, longest, tickets_done, moves, final)"},
    {"score_position", (PyCFunction)(void (*)(void))Tables_score_position, METH_VARARGS | METH_KEYWORDS,
     "score_position(position, seed_text) -> (totals, winners, completed, per seat ((ticket id, completed, "
     "points), ...)): the final scoring of the position as it stands"},
    {"choose", (PyCFunction)Tables_choose, METH_VARARGS,
     "choose(position, seed_text, seeds) -> (kind, a, b, c): the playout policy's move for the current seat, "
     "its bots fresh (a test entry)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ttr_lab.bots.kernel._playout.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An edition's tables for the playout kernel (immutable).",
    .tp_methods = Tables_methods,
    .tp_new = Tables_new,
};

/* ------------------------------------------------------------------ helpers for the tests */
static PyObject *py_mt_shuffle(PyObject *mod, PyObject *args) {
    const char *text;
    Py_ssize_t len;
    PyObject *items;
    if (!PyArg_ParseTuple(args, "y#O!", &text, &len, &PyList_Type, &items)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items);
    if (n > KT_MAX_CARDS) return PyErr_Format(PyExc_ValueError, "at most %d items", KT_MAX_CARDS);
    int x[KT_MAX_CARDS];
    for (Py_ssize_t i = 0; i < n; i++) {
        x[i] = (int)PyLong_AsLong(PyList_GET_ITEM(items, i));
        if (PyErr_Occurred()) return NULL;
    }
    KMT m;
    if (mt_seed_text(&m, text, (int)len) < 0) return PyErr_Format(PyExc_ValueError, "text too long");
    mt_shuffle(&m, x, (int)n);
    return ints_tuple(x, (int)n);
}

static PyObject *py_splitmix(PyObject *mod, PyObject *args) {
    unsigned long long seed;
    int k;
    if (!PyArg_ParseTuple(args, "Ki", &seed, &k)) return NULL;
    if (k < 0 || k > 100000) return PyErr_Format(PyExc_ValueError, "0 to 100,000 draws");
    uint64_t s = seed;
    PyObject *out = PyTuple_New(k);
    for (int i = 0; out && i < k; i++) PyTuple_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(splitmix_next(&s)));
    return out;
}

static PyMethodDef module_methods[] = {
    {"mt_shuffle", py_mt_shuffle, METH_VARARGS, "mt_shuffle(text, items): random.Random(text).shuffle, as a tuple"},
    {"splitmix", py_splitmix, METH_VARARGS, "splitmix(seed, k): the first k outputs of splitmix64"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout", "The compiled playout kernel of ttr_lab.", -1,
                                    module_methods};

PyMODINIT_FUNC PyInit__playout(void) {
    if (PyType_Ready(&TablesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "VERSION", KT_VERSION);
    return m;
}
