/*
   Operator inference: the separable description (include/ppekit/private/separableimpl.h) of an
   assembled 7-point matrix on a 3D DMDA, read from its entries.

   Method (docs/types/fftptdma-inference.md has the user's version):
     1. Read every owned row once (MatGetRow, global columns mapped to DMDA (i,j,k) through the
        ownership ranges) into its diagonal, its six star couplings and its largest entry off
        the star.
     2. Identity-row faces: a face whose rows (away from its edges) carry only a positive diagonal
        holds Dirichlet nodes assembled as scaled identity rows; the box of unknowns shrinks by
        one there.
     3. Coefficients, in units where the x coefficient is 1 (the row scaling r of a row then is
        minus its x coupling): c[1] from the y/x coupling ratio of a reference row interior in x
        and y; per z plane the z couplings and the diagonal remainder (z diagonal plus shift) of
        the reference row (lo+1, lo+1, k) of that plane.
     4. Each face of x and y from the rows on it that are interior in the other direction: the
        end row relative to its row scaling, [d, -o] with d from the diagonal remainder, is one
        of [1,-1] cell Neumann, [2,-2] vertex Neumann, [3,-1] cell Dirichlet, [2,-1] vertex
        Dirichlet. Both faces of a direction must agree on the location.
     5. z: the shift sigma is the smallest row sum of the z rows interior in z, the end rows with
        a larger row sum are Dirichlet; the singular case is recognised here.
     6. Row scaling of every row: the median of the scalings its entries imply (the diagonal over
        its model); then every entry of every owned row is checked against the model, to
        PPE_INFER_RTOL times the largest entry of the row. The first failing row (in natural
        ordering) is reported on every rank.
   With approximate = PETSC_TRUE, steps 3 and 4 average over all eligible rows instead of one
   reference row, ambiguous faces take the nearest kind, the row scaling comes from the diagonal
   alone, and the largest relative entry difference is kept as the misfit.

   Finally everything is rescaled so that the row scaling of the reference row
   (lo+1, lo+1, lo + n/2) is 1: c[0] is then the magnitude of that row's x coupling.
*/
#include <ppekit/private/separableimpl.h>
#include <petscdmda.h>

#define PPE_INFER_RTOL 1.0e-12 /* entry check: relative to the largest entry of the row */
#define PPE_INFER_FTOL 1.0e-8  /* face kinds: distance of [d, -o] to the nearest kind */

/* One owned row as read from the matrix. */
typedef struct {
  PetscReal diag;    /* diagonal entry */
  PetscReal nb[6];   /* couplings to x-, x+, y-, y+, z-, z+ (0 when absent) */
  PetscReal other;   /* largest |entry| off the 7-point star */
  PetscInt  ocol[3]; /* (i,j,k) of that entry */
  PetscReal amax;    /* largest |entry| of the row */
} InferRow;

/* Kinds of an end row in x or y. */
typedef enum {
  END_CELL_NEUMANN,
  END_VERTEX_NEUMANN,
  END_CELL_DIRICHLET,
  END_VERTEX_DIRICHLET
} InferEnd;
static const PetscReal   end_d[4]    = {1, 2, 3, 2};
static const PetscReal   end_o[4]    = {1, 2, 1, 1};
static const char *const end_name[4] = {"cell Neumann [1,-1]", "vertex Neumann [2,-2]", "cell Dirichlet [3,-1]", "vertex Dirichlet [2,-1]"};

/* What an entry check found wrong. */
typedef enum {
  FAIL_NONE,
  FAIL_COUPLING, /* a star coupling differs from the model */
  FAIL_DIAGONAL, /* the diagonal differs from the model */
  FAIL_OFFSTAR,  /* an entry off the 7-point star */
  FAIL_IDENTITY  /* a row of an identity-row face has an off-diagonal entry */
} InferFailKind;

/* The first failing row, exchanged between ranks as doubles. */
typedef struct {
  PetscReal kind, i, j, k, nb, ci, cj, ck, expected, found, amax;
} InferFail;

typedef struct {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscInt    M[3];       /* global sizes */
  PetscBool   per[3];     /* periodic DMDA direction */
  PetscInt    s[3], m[3]; /* owned corner and sizes */
  PetscInt    pm[3];      /* process grid */
  PetscInt   *off[3];     /* prefix sums of the ownership ranges, pm[d]+1 each */
  PetscInt   *start;      /* size+1 first global index of each rank */
  PetscInt    nloc;       /* owned rows */
  InferRow   *row;        /* nloc rows */
  PetscBool   approx;     /* build the nearest separable operator */
  PetscBool   ident[6];   /* identity-row face */
  PetscInt    lo[3], n[3];
  PetscInt    kref;       /* z index of the reference rows */
  PetscReal   c1;         /* y coefficient (x coefficient 1) */
  PetscReal  *zd, *zl, *zh; /* per DMDA plane: z diagonal + shift, z couplings (negated) */
  InferEnd    end[4];     /* kinds of the x and y faces (unused when periodic) */
  PetscReal   sigma;
  PetscReal  *zdi;        /* per DMDA plane: z diagonal without the shift */
  PetscReal  *r;          /* nloc row scalings (box rows) */
  PetscReal  *acc, *all;  /* sums over the planes' rows (freed by InferReset, also after an error) */
  PetscInt    nchecked;   /* rows checked, all ranks */
  PetscReal   misfit;     /* largest relative entry difference */
} InferCtx;

static const char *const face_name[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
static const char *const dir_name[3]  = {"x", "y", "z"};

static inline PetscInt LocalIndex(const InferCtx *c, PetscInt i, PetscInt j, PetscInt k)
{
  return (i - c->s[0]) + c->m[0] * ((j - c->s[1]) + c->m[1] * (k - c->s[2]));
}

static inline PetscBool InBox(const InferCtx *c, PetscInt d, PetscInt x)
{
  return (PetscBool)(x >= c->lo[d] && x < c->lo[d] + c->n[d]);
}

/* interior in direction d: both neighbours in the box */
static inline PetscBool Interior(const InferCtx *c, PetscInt d, PetscInt x)
{
  return (PetscBool)(c->per[d] || (x > c->lo[d] && x < c->lo[d] + c->n[d] - 1));
}

/* (i,j,k) of a global (PETSc-ordered) index of the DMDA */
static void ColumnToIJK(const InferCtx *c, PetscInt g, PetscInt ijk[3])
{
  PetscInt a = 0, b = c->size, r, rx, ry, rz, xm, ym, loc;

  if (g >= c->start[c->rank] && g < c->start[c->rank + 1]) a = c->rank;
  else {
    while (b - a > 1) {
      PetscInt mid = (a + b) / 2;
      if (c->start[mid] <= g) a = mid;
      else b = mid;
    }
  }
  r      = a;
  rx     = r % c->pm[0];
  ry     = (r / c->pm[0]) % c->pm[1];
  rz     = r / (c->pm[0] * c->pm[1]);
  xm     = c->off[0][rx + 1] - c->off[0][rx];
  ym     = c->off[1][ry + 1] - c->off[1][ry];
  loc    = g - c->start[r];
  ijk[0] = c->off[0][rx] + loc % xm;
  loc /= xm;
  ijk[1] = c->off[1][ry] + loc % ym;
  ijk[2] = c->off[2][rz] + loc / ym;
}

/* offset of a column index from the row index along d: -1, 0, 1, or 2 for anything else */
static inline PetscInt Offset(const InferCtx *c, PetscInt d, PetscInt col, PetscInt x)
{
  PetscInt dl = col - x;
  if (c->per[d]) {
    if (dl == c->M[d] - 1) dl = -1;
    else if (dl == 1 - c->M[d]) dl = 1;
  }
  return (dl >= -1 && dl <= 1) ? dl : 2;
}

/* Step 1: the owned rows. */
static PetscErrorCode InferReadRows(InferCtx *c, Mat A)
{
  PetscInt  rstart, rend;
  PetscBool bad = PETSC_FALSE, anybad;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(PetscCalloc1(c->nloc, &c->row));
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        PetscInt           l = LocalIndex(c, i, j, k), ncols, x[3] = {i, j, k};
        const PetscInt    *cols;
        const PetscScalar *vals;
        InferRow          *w = &c->row[l];

        PetscCall(MatGetRow(A, rstart + l, &ncols, &cols, &vals));
        for (PetscInt e = 0; e < ncols; e++) {
          PetscReal v = PetscRealPart(vals[e]);
          PetscInt  ijk[3], o[3], nz = 0, dir = -1;

          if (PetscIsInfOrNanReal(v)) bad = PETSC_TRUE;
          w->amax = PetscMax(w->amax, PetscAbsReal(v));
          if (cols[e] == rstart + l) {
            w->diag = v;
            continue;
          }
          ColumnToIJK(c, cols[e], ijk);
          for (PetscInt d = 0; d < 3; d++) {
            o[d] = Offset(c, d, ijk[d], x[d]);
            if (o[d]) {
              nz++;
              dir = d;
            }
          }
          if (nz == 1 && o[dir] != 2) w->nb[2 * dir + (o[dir] > 0)] = v;
          else if (PetscAbsReal(v) > w->other) {
            w->other = PetscAbsReal(v);
            for (PetscInt d = 0; d < 3; d++) w->ocol[d] = ijk[d];
          }
        }
        PetscCall(MatRestoreRow(A, rstart + l, &ncols, &cols, &vals));
      }
  PetscCall(MPIU_Allreduce(&bad, &anybad, 1, PPE_MPI_BOOL, MPI_LOR, c->comm));
  PetscCheck(!anybad, c->comm, PETSC_ERR_FP, "The matrix has Inf or NaN entries");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first row (natural order) over all ranks for which the predicate failed: key < 0 means
   none on this rank; returns the owner of the smallest key, or -1. */
static PetscErrorCode InferFirst(InferCtx *c, PetscReal key, PetscReal *buf, PetscInt nbuf, PetscMPIInt *owner)
{
  struct {
    double v;
    int    r;
  } in, out;

  PetscFunctionBegin;
  in.v = key < 0 ? PETSC_MAX_REAL : (double)key;
  in.r = (int)c->rank;
  PetscCallMPI(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, c->comm));
  *owner = out.v == PETSC_MAX_REAL ? -1 : (PetscMPIInt)out.r;
  if (*owner >= 0) {
    PetscMPIInt n;

    PetscCall(PetscMPIIntCast(nbuf, &n));
    PetscCallMPI(MPI_Bcast(buf, n, MPIU_REAL, *owner, c->comm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscReal NaturalKey(const InferCtx *c, PetscInt i, PetscInt j, PetscInt k)
{
  return (PetscReal)i + (PetscReal)c->M[0] * ((PetscReal)j + (PetscReal)c->M[1] * (PetscReal)k);
}

/* Diagonals: positive everywhere (fatal in every mode). */
static PetscErrorCode InferCheckDiagonal(InferCtx *c)
{
  PetscReal   key = -1, buf[4] = {0, 0, 0, 0};
  PetscMPIInt owner;

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2] && key < 0; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1] && key < 0; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0] && key < 0; i++) {
        const InferRow *w = &c->row[LocalIndex(c, i, j, k)];
        if (!(w->diag > 0)) {
          key    = NaturalKey(c, i, j, k);
          buf[0] = (PetscReal)i, buf[1] = (PetscReal)j, buf[2] = (PetscReal)k, buf[3] = w->diag;
        }
      }
  PetscCall(InferFirst(c, key, buf, 4, &owner));
  PetscCheck(owner < 0, c->comm, PETSC_ERR_ARG_WRONG,
             "Operator inference: row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ") has diagonal %g: every diagonal entry must be positive (a Laplacian-type operator, sign convention -Lap)",
             (PetscInt)buf[0], (PetscInt)buf[1], (PetscInt)buf[2], (double)buf[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 2: identity-row faces and the box. */
static PetscErrorCode InferBox(InferCtx *c)
{
  PetscInt cnt[12] = {0}, all[12];

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        const InferRow *w = &c->row[LocalIndex(c, i, j, k)];
        PetscInt        x[3] = {i, j, k};
        PetscReal       offmax = w->other;
        PetscBool       id;

        for (PetscInt f = 0; f < 6; f++) offmax = PetscMax(offmax, PetscAbsReal(w->nb[f]));
        id = (PetscBool)(offmax <= PPE_INFER_RTOL * w->diag);
        for (PetscInt f = 0; f < 6; f++) {
          PetscInt  d = f / 2, e1 = (d + 1) % 3, e2 = (d + 2) % 3;
          PetscBool onface = (PetscBool)(!c->per[d] && x[d] == (f % 2 ? c->M[d] - 1 : 0));
          /* face rows away from the face's edges */
          if (!onface) continue;
          if (!c->per[e1] && (x[e1] == 0 || x[e1] == c->M[e1] - 1)) continue;
          if (!c->per[e2] && (x[e2] == 0 || x[e2] == c->M[e2] - 1)) continue;
          cnt[2 * f + (id ? 0 : 1)]++;
        }
      }
  PetscCall(MPIU_Allreduce(cnt, all, 12, MPIU_INT, MPI_SUM, c->comm));
  for (PetscInt f = 0; f < 6; f++) {
    PetscInt nid = all[2 * f], nop = all[2 * f + 1];
    PetscCheck(c->approx || nid == 0 || nop == 0, c->comm, PETSC_ERR_ARG_INCOMP,
               "Operator inference: on face %s, %" PetscInt_FMT " rows are identity rows (a diagonal only: Dirichlet nodes) but %" PetscInt_FMT " rows couple to their neighbours; Dirichlet nodes must be identity rows on the whole face. Use -pc_fftptdma_approximate for the nearest separable operator",
               face_name[f], nid, nop);
    c->ident[f] = (PetscBool)(nid > nop);
  }
  for (PetscInt d = 0; d < 3; d++) {
    c->lo[d] = c->ident[2 * d] ? 1 : 0;
    c->n[d]  = c->M[d] - c->ident[2 * d] - c->ident[2 * d + 1];
    PetscCheck(c->n[d] >= (d < 2 ? 3 : 2), c->comm, PETSC_ERR_ARG_SIZ,
               "Operator inference: %" PetscInt_FMT " unknowns in %s between the identity-row faces; at least %d are needed", c->n[d], dir_name[d], d < 2 ? 3 : 2);
  }
  c->kref = c->lo[2] + c->n[2] / 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Row scaling (x coefficient 1) implied by the couplings of direction e of a row interior in e. */
static PetscErrorCode InferScaleFrom(InferCtx *c, const InferRow *w, PetscInt e, PetscReal ce, PetscInt i, PetscInt j, PetscInt k, PetscReal *r)
{
  PetscFunctionBegin;
  *r = -(w->nb[2 * e] + w->nb[2 * e + 1]) / (2 * ce);
  PetscCheck(*r > 0 || c->approx, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "Operator inference: row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ") couples to its %s neighbours with %g and %g: a zero or negative row scaling (couplings of a -Lap operator are negative). Use -pc_fftptdma_approximate for the nearest separable operator", i, j, k,
             dir_name[e], (double)w->nb[2 * e], (double)w->nb[2 * e + 1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Run a local check that may fail on some ranks only, and raise the error on every rank. */
#define InferCollective(c, call) \
  do { \
    PetscErrorCode _ierr, _max; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    _ierr = (call); \
    PetscCall(PetscPopErrorHandler()); \
    PetscCall(MPIU_Allreduce(&_ierr, &_max, 1, MPI_INT, MPI_MAX, (c)->comm)); \
    if (_max) { \
      char        _msg[512] = ""; \
      PetscMPIInt _owner; \
      PetscReal   _key = -1, _buf[1] = {0}; \
      if (_ierr) { \
        const char *_s = NULL; \
        PetscCall(PPEErrorMessage(_ierr, &_s)); \
        if (_s) PetscCall(PetscStrncpy(_msg, _s, sizeof(_msg))); \
        _key = (PetscReal)(c)->rank; \
      } \
      PetscCall(InferFirst((c), _key, _buf, 0, &_owner)); \
      PetscCallMPI(MPI_Bcast(_msg, (PetscMPIInt)sizeof(_msg), MPI_CHAR, _owner, (c)->comm)); \
      SETERRQ((c)->comm, PETSC_ERR_ARG_WRONG, "%s", _msg); \
    } \
  } while (0)

/* Step 3: c1 and the per-plane z data. */
static PetscErrorCode InferPlanesLocal(InferCtx *c, PetscReal *acc)
{
  PetscInt M2 = c->M[2];

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++) {
    if (!InBox(c, 2, k)) continue;
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        const InferRow *w = &c->row[LocalIndex(c, i, j, k)];
        PetscReal       rx;
        PetscBool       ref = (PetscBool)(i == c->lo[0] + 1 && j == c->lo[1] + 1);

        if (!Interior(c, 0, i) || !Interior(c, 1, j) || !InBox(c, 0, i) || !InBox(c, 1, j)) continue;
        if (!c->approx && !ref) continue;
        PetscCall(InferScaleFrom(c, w, 0, 1.0, i, j, k, &rx));
        if (!(rx > 0)) continue;
        if (c->approx || k == c->kref) {
          acc[0] += (w->nb[2] + w->nb[3]) / (w->nb[0] + w->nb[1]);
          acc[1] += 1;
        }
        acc[2 + k] += w->diag / rx;
        acc[2 + M2 + k] += (k == c->lo[2] && !c->per[2]) ? 0 : -w->nb[4] / rx;
        acc[2 + 2 * M2 + k] += (k == c->lo[2] + c->n[2] - 1 && !c->per[2]) ? 0 : -w->nb[5] / rx;
        acc[2 + 3 * M2 + k] += 1;
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InferPlanes(InferCtx *c)
{
  PetscInt    M2 = c->M[2];
  PetscReal  *acc, *all;
  PetscMPIInt nacc;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(2 + 4 * M2, &c->acc, 2 + 4 * M2, &c->all));
  acc = c->acc;
  all = c->all;
  InferCollective(c, InferPlanesLocal(c, acc));
  PetscCall(PetscMPIIntCast(2 + 4 * M2, &nacc));
  PetscCall(MPIU_Allreduce(acc, all, nacc, MPIU_REAL, MPIU_SUM, c->comm));
  PetscCheck(all[1] > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: no row interior in x and y has negative x couplings");
  c->c1 = all[0] / all[1];
  PetscCheck(c->c1 > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: the y couplings have the wrong sign (ratio to the x couplings %g): not a -Lap type operator", (double)c->c1);
  for (PetscInt k = c->lo[2]; k < c->lo[2] + c->n[2]; k++) {
    PetscReal cnt = all[2 + 3 * M2 + k];
    PetscCheck(cnt > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: no usable row interior in x and y on z plane %" PetscInt_FMT, k);
    c->zd[k] = all[2 + k] / cnt - 2 - 2 * c->c1;
    c->zl[k] = all[2 + M2 + k] / cnt;
    c->zh[k] = all[2 + 2 * M2 + k] / cnt;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 4: kinds of the x and y faces. acc: per face (o, d, count). */
static PetscErrorCode InferFacesLocal(InferCtx *c, PetscReal *acc)
{
  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        const InferRow *w    = &c->row[LocalIndex(c, i, j, k)];
        PetscInt        x[3] = {i, j, k};

        if (!InBox(c, 0, i) || !InBox(c, 1, j) || !InBox(c, 2, k)) continue;
        for (PetscInt f = 0; f < 4; f++) {
          PetscInt  d = f / 2, e = 1 - d, end = (f % 2) ? c->lo[d] + c->n[d] - 1 : c->lo[d];
          PetscReal cd = d ? c->c1 : 1, ce = e ? c->c1 : 1, re;

          if (c->per[d] || x[d] != end || !Interior(c, e, x[e])) continue;
          if (!c->approx && (k != c->kref || x[e] != c->lo[e] + 1)) continue;
          PetscCall(InferScaleFrom(c, w, e, ce, i, j, k, &re));
          if (!(re > 0)) continue;
          acc[3 * f] += -w->nb[2 * d + (f % 2 ? 0 : 1)] / (re * cd);
          acc[3 * f + 1] += (w->diag / re - 2 * ce - c->zd[k]) / cd;
          acc[3 * f + 2] += 1;
        }
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static InferEnd NearestEnd(PetscReal o, PetscReal d, PetscInt only_loc, PetscReal *dist)
{
  InferEnd best = END_CELL_NEUMANN;
  *dist         = PETSC_MAX_REAL;
  for (PetscInt t = 0; t < 4; t++) {
    PetscReal dt = PetscAbsReal(o - end_o[t]) + PetscAbsReal(d - end_d[t]);
    if (only_loc >= 0 && (t == END_VERTEX_NEUMANN || t == END_VERTEX_DIRICHLET) != (only_loc == PPE_LOCATION_VERTEX)) continue;
    if (dt < *dist) {
      *dist = dt;
      best  = (InferEnd)t;
    }
  }
  return best;
}

static inline PPELocation EndLocation(InferEnd t)
{
  return (t == END_VERTEX_NEUMANN || t == END_VERTEX_DIRICHLET) ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL;
}

static PetscErrorCode InferFaces(InferCtx *c)
{
  PetscReal acc[12] = {0}, all[12];

  PetscFunctionBegin;
  InferCollective(c, InferFacesLocal(c, acc));
  PetscCall(MPIU_Allreduce(acc, all, 12, MPIU_REAL, MPIU_SUM, c->comm));
  for (PetscInt f = 0; f < 4; f++) {
    PetscReal o, d, dist;
    if (c->per[f / 2]) continue;
    PetscCheck(all[3 * f + 2] > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: no usable row on face %s", face_name[f]);
    o         = all[3 * f] / all[3 * f + 2];
    d         = all[3 * f + 1] / all[3 * f + 2];
    c->end[f] = NearestEnd(o, d, -1, &dist);
    PetscCheck(c->approx || dist <= PPE_INFER_FTOL, c->comm, PETSC_ERR_ARG_WRONG,
               "Operator inference: the end rows of face %s read [%g, %g] relative to their row scaling, which is none of [1,-1] (cell Neumann), [2,-2] (vertex Neumann), [3,-1] (cell Dirichlet), [2,-1] (vertex Dirichlet). Use -pc_fftptdma_approximate for the nearest separable operator",
               face_name[f], (double)d, (double)-o);
  }
  for (PetscInt d = 0; d < 2; d++) {
    if (c->per[d]) continue;
    if (EndLocation(c->end[2 * d]) != EndLocation(c->end[2 * d + 1])) {
      PetscReal o = all[6 * d + 3] / all[6 * d + 5], dd = all[6 * d + 4] / all[6 * d + 5], dist;
      PetscCheck(c->approx, c->comm, PETSC_ERR_ARG_INCOMP,
                 "Operator inference: face %s has %s end rows but face %s has %s end rows: both faces of a direction must have the same location (cell or vertex). Use -pc_fftptdma_approximate for the nearest separable operator",
                 face_name[2 * d], end_name[c->end[2 * d]], face_name[2 * d + 1], end_name[c->end[2 * d + 1]]);
      c->end[2 * d + 1] = NearestEnd(o, dd, EndLocation(c->end[2 * d]), &dist);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 5: sigma, the z rows without it, the z boundary conditions. */
static PetscErrorCode InferZ(InferCtx *c, PPESeparable *sep, PetscBool *zextra)
{
  PetscInt  lo = c->lo[2], hi = c->lo[2] + c->n[2] - 1;
  PetscReal scale = 2 + 2 * c->c1, tol, sigma = PETSC_MAX_REAL;

  PetscFunctionBegin;
  for (PetscInt k = lo; k <= hi; k++) scale = PetscMax(scale, PetscAbsReal(c->zd[k]) + c->zl[k] + c->zh[k]);
  tol = 100 * PETSC_MACHINE_EPSILON * scale;
  for (PetscInt k = lo; k <= hi; k++)
    if (Interior(c, 2, k)) sigma = PetscMin(sigma, c->zd[k] - c->zl[k] - c->zh[k]);
  if (sigma == PETSC_MAX_REAL) sigma = 0; /* two z planes: no interior row tells the shift */
  if (PetscAbsReal(sigma) <= tol) sigma = 0;
  c->sigma = sigma;
  *zextra  = PETSC_FALSE;
  for (PetscInt k = lo; k <= hi; k++) {
    PetscReal rs = c->zd[k] - c->zl[k] - c->zh[k] - sigma;
    /* zero row sums snap exactly, so that a singular operator is exactly singular */
    if (PetscAbsReal(rs) <= tol) c->zdi[k] = c->zl[k] + c->zh[k];
    else {
      c->zdi[k] = c->zd[k] - sigma;
      if (Interior(c, 2, k)) *zextra = PETSC_TRUE;
    }
  }
  if (c->per[2]) sep->bc[4] = sep->bc[5] = PPE_BC_PERIODIC;
  else {
    sep->bc[4] = PetscAbsReal(c->zdi[lo] - c->zl[lo] - c->zh[lo]) > tol ? PPE_BC_DIRICHLET : PPE_BC_NEUMANN;
    sep->bc[5] = PetscAbsReal(c->zdi[hi] - c->zl[hi] - c->zh[hi]) > tol ? PPE_BC_DIRICHLET : PPE_BC_NEUMANN;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Model of a box row in units of its row scaling: unit[0..5] the couplings (0: none or free),
   free[f] when the neighbour is an identity-row node, unit[6] the diagonal. */
static void RowModel(const InferCtx *c, PetscInt i, PetscInt j, PetscInt k, PetscReal unit[7], PetscBool fr[6])
{
  PetscInt  x[3] = {i, j, k};
  PetscReal cd[2] = {1, c->c1};

  unit[6] = c->sigma + c->zdi[k];
  for (PetscInt d = 0; d < 2; d++) {
    PetscInt lo = c->lo[d], hi = c->lo[d] + c->n[d] - 1;
    for (PetscInt s = 0; s < 2; s++) {
      PetscInt  f     = 2 * d + s;
      PetscBool atend = (PetscBool)(!c->per[d] && x[d] == (s ? hi : lo));
      fr[f]           = (PetscBool)(atend && c->ident[f]);
      if (atend) unit[f] = 0;
      else {
        /* the inward coupling of a vertex Neumann end row is doubled */
        PetscBool other_end = (PetscBool)(!c->per[d] && x[d] == (s ? lo : hi));
        unit[f]             = -cd[d] * ((other_end && c->end[2 * d + 1 - s] == END_VERTEX_NEUMANN) ? 2 : 1);
      }
    }
    if (c->per[d] || (x[d] > lo && x[d] < hi)) unit[6] += 2 * cd[d];
    else unit[6] += cd[d] * end_d[c->end[2 * d + (x[d] == hi)]];
  }
  {
    PetscBool atlo = (PetscBool)(!c->per[2] && k == c->lo[2]), athi = (PetscBool)(!c->per[2] && k == c->lo[2] + c->n[2] - 1);
    fr[4]   = (PetscBool)(atlo && c->ident[4]);
    fr[5]   = (PetscBool)(athi && c->ident[5]);
    unit[4] = atlo ? 0 : -c->zl[k];
    unit[5] = athi ? 0 : -c->zh[k];
  }
}

/* median of at most 7 values (insertion sort) */
static inline PetscReal Median(PetscReal *v, PetscInt n)
{
  for (PetscInt a = 1; a < n; a++) {
    PetscReal t = v[a];
    PetscInt  b = a - 1;
    for (; b >= 0 && v[b] > t; b--) v[b + 1] = v[b];
    v[b + 1] = t;
  }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Step 6: row scalings, then every entry. */
static PetscErrorCode InferCheck(InferCtx *c)
{
  PetscReal   key = -1, misfit = 0;
  InferFail   fl  = {0};
  PetscMPIInt owner;
  PetscInt    nrows = 0, nbad = 0, nbadall;

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        PetscInt        l = LocalIndex(c, i, j, k);
        const InferRow *w = &c->row[l];
        PetscReal       tol = PPE_INFER_RTOL * w->amax, exp[8], fnd[8], unit[7];
        PetscBool       fr[6];
        InferFail       cand = {0};
        PetscReal       worst = 0;

        nrows++;
        if (!InBox(c, 0, i) || !InBox(c, 1, j) || !InBox(c, 2, k)) {
          /* an identity row: nothing but the diagonal */
          for (PetscInt f = 0; f < 6; f++) {
            exp[f] = 0;
            fnd[f] = w->nb[f];
          }
          exp[6] = fnd[6] = w->diag;
          c->r[l]         = 1;
        } else {
          PetscReal est[7];
          PetscInt  ne = 0;
          RowModel(c, i, j, k, unit, fr);
          if (!(unit[6] > 0)) { /* only an approximation of a strange matrix gets here */
            nbad++;
            unit[6] = 1;
          }
          if (c->approx) c->r[l] = w->diag / unit[6];
          else {
            for (PetscInt f = 0; f < 6; f++)
              if (!fr[f] && unit[f] != 0) est[ne++] = w->nb[f] / unit[f];
            est[ne++] = w->diag / unit[6];
            c->r[l] = Median(est, ne);
          }
          for (PetscInt f = 0; f < 6; f++) {
            exp[f] = fr[f] ? w->nb[f] : c->r[l] * unit[f];
            fnd[f] = w->nb[f];
          }
          exp[6] = c->r[l] * unit[6];
          fnd[6] = w->diag;
        }
        exp[7] = 0;
        fnd[7] = w->other;
        for (PetscInt e = 0; e < 8; e++) {
          PetscReal dev = PetscAbsReal(fnd[e] - exp[e]);
          if (w->amax > 0) misfit = PetscMax(misfit, dev / w->amax);
          if (dev > tol && dev > worst && key < 0) {
            worst         = dev;
            cand.kind     = (PetscReal)(e == 7 ? FAIL_OFFSTAR : (!InBox(c, 0, i) || !InBox(c, 1, j) || !InBox(c, 2, k)) ? FAIL_IDENTITY : e == 6 ? FAIL_DIAGONAL : FAIL_COUPLING);
            cand.i        = (PetscReal)i, cand.j = (PetscReal)j, cand.k = (PetscReal)k;
            cand.nb       = (PetscReal)e;
            cand.ci       = (PetscReal)w->ocol[0], cand.cj = (PetscReal)w->ocol[1], cand.ck = (PetscReal)w->ocol[2];
            cand.expected = exp[e];
            cand.found    = fnd[e];
            cand.amax     = w->amax;
          }
        }
        if (worst > 0 && key < 0) {
          key = NaturalKey(c, i, j, k);
          fl  = cand;
        }
      }
  PetscCall(MPIU_Allreduce(&nbad, &nbadall, 1, MPIU_INT, MPI_SUM, c->comm));
  PetscCheck(!nbadall, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: the separable model has a non-positive diagonal on %" PetscInt_FMT " rows (z planes with a negative remainder): no separable operator near this matrix", nbadall);
  PetscCall(MPIU_Allreduce(&misfit, &c->misfit, 1, MPIU_REAL, MPIU_MAX, c->comm));
  PetscCall(MPIU_Allreduce(&nrows, &c->nchecked, 1, MPIU_INT, MPI_SUM, c->comm));
  if (c->approx) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(InferFirst(c, key, (PetscReal *)&fl, sizeof(fl) / sizeof(PetscReal), &owner));
  if (owner >= 0) {
    PetscInt    i = (PetscInt)fl.i, j = (PetscInt)fl.j, k = (PetscInt)fl.k, e = (PetscInt)fl.nb;
    PetscInt    nbx[3] = {i, j, k};
    const char *what, *hint;
    char        where[128];

    if (e < 6) {
      nbx[e / 2] += (e % 2) ? 1 : -1;
      if (c->per[e / 2]) nbx[e / 2] = (nbx[e / 2] + c->M[e / 2]) % c->M[e / 2];
    }
    switch ((InferFailKind)(PetscInt)fl.kind) {
    case FAIL_COUPLING:
      what = "coupling";
      hint = e < 4 ? "the x and y coefficients must be uniform up to the row scaling" : "the z couplings must be the same across each z plane up to the row scaling";
      break;
    case FAIL_DIAGONAL:
      what = "diagonal";
      hint = "the diagonal must be the sum of the couplings' model plus one shift per z plane";
      break;
    case FAIL_OFFSTAR:
      what = "entry off the 7-point stencil";
      hint = "only the diagonal and the six star neighbours may be nonzero";
      break;
    default:
      what = "off-diagonal entry of an identity row";
      hint = "rows on an identity-row (Dirichlet) face must have no off-diagonal entry";
    }
    if (e < 6) PetscCall(PetscSNPrintf(where, sizeof(where), "to the %s neighbour (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")", face_name[e], nbx[0], nbx[1], nbx[2]));
    else if (e == 6) PetscCall(PetscSNPrintf(where, sizeof(where), "(the diagonal)"));
    else PetscCall(PetscSNPrintf(where, sizeof(where), "to (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")", (PetscInt)fl.ci, (PetscInt)fl.cj, (PetscInt)fl.ck));
    SETERRQ(c->comm, PETSC_ERR_ARG_WRONG,
            "Operator inference: the matrix is not a separable 7-point operator: check of the %s failed at row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "), entry %s: expected %.12g, found %.12g (largest entry of the row %g, tolerance %g relative); %s. Use -pc_fftptdma_approximate for the nearest separable operator (a preconditioner for CG/GMRES)",
            what, i, j, k, where, (double)fl.expected, (double)fl.found, (double)fl.amax, (double)PPE_INFER_RTOL, hint);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InferSetUpLayout(InferCtx *c, Mat A, DM da)
{
  PetscInt        dim, dof, sw, Mm, Nm, rstart, rend;
  DMBoundaryType  bt[3];
  DMDAStencilType st;
  const PetscInt *lr[3];
  PetscBool       isda;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  PetscCheck(isda, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs the matrix's DM to be a DMDA, not %s", ((PetscObject)da)->type_name);
  PetscCall(DMDAGetInfo(da, &dim, &c->M[0], &c->M[1], &c->M[2], &c->pm[0], &c->pm[1], &c->pm[2], &dof, &sw, &bt[0], &bt[1], &bt[2], &st));
  PetscCheck(dim == 3, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs a 3D DMDA, not %" PetscInt_FMT "D", dim);
  PetscCheck(dof == 1, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs a DMDA with one dof per point, not %" PetscInt_FMT, dof);
  PetscCheck(sw >= 1, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs a DMDA of stencil width at least 1, not %" PetscInt_FMT, sw);
  for (PetscInt d = 0; d < 3; d++) {
    c->per[d] = (PetscBool)(bt[d] == DM_BOUNDARY_PERIODIC);
    PetscCheck(c->M[d] >= 3, c->comm, PETSC_ERR_ARG_SIZ, "Operator inference needs at least 3 DMDA points in %s, not %" PetscInt_FMT, dir_name[d], c->M[d]);
  }
  PetscCall(MatGetSize(A, &Mm, &Nm));
  PetscCheck(Mm == Nm && Mm == c->M[0] * c->M[1] * c->M[2], c->comm, PETSC_ERR_ARG_SIZ, "Operator inference: the matrix is %" PetscInt_FMT " x %" PetscInt_FMT " but the DMDA has %" PetscInt_FMT " points", Mm, Nm,
             c->M[0] * c->M[1] * c->M[2]);
  PetscCall(DMDAGetCorners(da, &c->s[0], &c->s[1], &c->s[2], &c->m[0], &c->m[1], &c->m[2]));
  c->nloc = c->m[0] * c->m[1] * c->m[2];
  PetscCall(DMDAGetOwnershipRanges(da, &lr[0], &lr[1], &lr[2]));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCall(PetscMalloc1(c->pm[d] + 1, &c->off[d]));
    c->off[d][0] = 0;
    for (PetscInt p = 0; p < c->pm[d]; p++) c->off[d][p + 1] = c->off[d][p] + lr[d][p];
  }
  PetscCall(PetscMalloc1(c->size + 1, &c->start));
  c->start[0] = 0;
  for (PetscMPIInt r = 0; r < c->size; r++) {
    PetscInt rx = r % c->pm[0], ry = (r / c->pm[0]) % c->pm[1], rz = r / (c->pm[0] * c->pm[1]);
    c->start[r + 1] = c->start[r] + lr[0][rx] * lr[1][ry] * lr[2][rz];
  }
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  {
    PetscBool ok = (PetscBool)(rstart == c->start[c->rank] && rend == c->start[c->rank + 1]), all;
    PetscCall(MPIU_Allreduce(&ok, &all, 1, PPE_MPI_BOOL, MPI_LAND, c->comm));
    PetscCheck(all, c->comm, PETSC_ERR_ARG_SIZ, "Operator inference: the matrix's row distribution is not the DMDA's (create the matrix with DMCreateMatrix)");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rescale to rowscale 1 at the reference row; fill the description. */
static PetscErrorCode InferFinish(InferCtx *c, DM da, const char *mtype, PetscBool zextra, PPESeparable *sep)
{
  PetscReal    sloc = 0, s, *pmin, *pmax, *gmin, *gmax, devloc = 0, devmax;
  PetscScalar *rs, *id = NULL;
  PetscInt     i0 = c->lo[0] + 1, j0 = c->lo[1] + 1, nid = 0;
  PetscBool    zonly = PETSC_TRUE, xyD = PETSC_FALSE, uniform;
  PetscMPIInt  nz;
  char         bcs[7], locs[64], idf[64] = "";

  PetscFunctionBegin;
  if (i0 >= c->s[0] && i0 < c->s[0] + c->m[0] && j0 >= c->s[1] && j0 < c->s[1] + c->m[1] && c->kref >= c->s[2] && c->kref < c->s[2] + c->m[2]) sloc = c->r[LocalIndex(c, i0, j0, c->kref)];
  PetscCall(MPIU_Allreduce(&sloc, &s, 1, MPIU_REAL, MPIU_SUM, c->comm));
  PetscCheck(s > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: zero or negative row scaling %g at the reference row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")", (double)s, i0, j0, c->kref);

  for (PetscInt d = 0; d < 3; d++) {
    sep->M[d]  = c->M[d];
    sep->lo[d] = c->lo[d];
    sep->n[d]  = c->n[d];
  }
  sep->c[0]  = s;
  sep->c[1]  = s * c->c1;
  sep->sigma = s * c->sigma;
  /* three separate arrays, as PPESeparableCreateFromGrid() makes them and PPESeparableDestroy() frees them */
  PetscCall(PetscMalloc1(c->n[2], &sep->zlo));
  PetscCall(PetscMalloc1(c->n[2], &sep->zdi));
  PetscCall(PetscMalloc1(c->n[2], &sep->zhi));
  for (PetscInt k = 0; k < c->n[2]; k++) {
    PetscInt kk  = k + c->lo[2];
    sep->zlo[k] = (k == 0 && !c->per[2]) ? 0 : s * c->zl[kk];
    sep->zhi[k] = (k == c->n[2] - 1 && !c->per[2]) ? 0 : s * c->zh[kk];
    sep->zdi[k] = s * c->zdi[kk];
  }
  for (PetscInt d = 0; d < 2; d++) {
    if (c->per[d]) sep->bc[2 * d] = sep->bc[2 * d + 1] = PPE_BC_PERIODIC;
    else
      for (PetscInt t = 0; t < 2; t++) {
        InferEnd e          = c->end[2 * d + t];
        sep->bc[2 * d + t] = (e == END_CELL_DIRICHLET || e == END_VERTEX_DIRICHLET) ? PPE_BC_DIRICHLET : PPE_BC_NEUMANN;
        if (sep->bc[2 * d + t] == PPE_BC_DIRICHLET) xyD = PETSC_TRUE;
      }
  }
  {
    PPELocation def = (c->ident[4] || c->ident[5]) ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL;
    if (!c->per[1]) def = EndLocation(c->end[2]);
    if (!c->per[0]) def = EndLocation(c->end[0]);
    sep->loc[0] = c->per[0] ? def : EndLocation(c->end[0]);
    sep->loc[1] = c->per[1] ? def : EndLocation(c->end[2]);
    sep->loc[2] = (c->ident[4] || c->ident[5]) ? PPE_LOCATION_VERTEX : def;
  }
  sep->singular = (PetscBool)(!xyD && sep->bc[4] != PPE_BC_DIRICHLET && sep->bc[5] != PPE_BC_DIRICHLET && c->sigma == 0 && !zextra);

  /* vectors, and how the row scaling varies */
  PetscCall(PetscCalloc4(c->M[2], &pmin, c->M[2], &pmax, c->M[2], &gmin, c->M[2], &gmax));
  for (PetscInt k = 0; k < c->M[2]; k++) pmin[k] = PETSC_MAX_REAL;
  for (PetscInt f = 0; f < 6; f++) nid += c->ident[f];
  PetscCall(DMCreateGlobalVector(da, &sep->rowscale));
  PetscCall(VecGetArray(sep->rowscale, &rs));
  if (nid) {
    PetscCall(DMCreateGlobalVector(da, &sep->idiag));
    PetscCall(VecGetArray(sep->idiag, &id));
  }
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        PetscInt  l     = LocalIndex(c, i, j, k);
        PetscBool inbox = (PetscBool)(InBox(c, 0, i) && InBox(c, 1, j) && InBox(c, 2, k));
        if (inbox) {
          PetscReal r = c->r[l] / s;
          rs[l]       = r;
          pmin[k]     = PetscMin(pmin[k], r);
          pmax[k]     = PetscMax(pmax[k], r);
          devloc      = PetscMax(devloc, PetscAbsReal(r - 1));
          if (id) id[l] = 0;
        } else {
          rs[l] = 1;
          if (id) id[l] = c->row[l].diag;
        }
      }
  PetscCall(VecRestoreArray(sep->rowscale, &rs));
  if (id) PetscCall(VecRestoreArray(sep->idiag, &id));
  PetscCall(PetscMPIIntCast(c->M[2], &nz));
  PetscCall(MPIU_Allreduce(pmin, gmin, nz, MPIU_REAL, MPIU_MIN, c->comm));
  PetscCall(MPIU_Allreduce(pmax, gmax, nz, MPIU_REAL, MPIU_MAX, c->comm));
  PetscCall(MPIU_Allreduce(&devloc, &devmax, 1, MPIU_REAL, MPIU_MAX, c->comm));
  uniform = (PetscBool)(devmax <= 100 * PETSC_MACHINE_EPSILON);
  for (PetscInt k = c->lo[2]; k < c->lo[2] + c->n[2]; k++)
    if (gmax[k] - gmin[k] > 100 * PETSC_MACHINE_EPSILON * gmax[k]) zonly = PETSC_FALSE;
  PetscCall(PetscFree4(pmin, pmax, gmin, gmax));
  if (uniform) PetscCall(VecDestroy(&sep->rowscale)); /* NULL means 1 */

  for (PetscInt f = 0; f < 6; f++) bcs[f] = sep->bc[f] == PPE_BC_PERIODIC ? 'P' : sep->bc[f] == PPE_BC_NEUMANN ? 'N' : 'D';
  bcs[6] = 0;
  if (sep->loc[0] == sep->loc[1] && sep->loc[1] == sep->loc[2]) PetscCall(PetscSNPrintf(locs, sizeof(locs), "%s-centred", sep->loc[0] == PPE_LOCATION_CELL ? "cell" : "vertex"));
  else PetscCall(PetscSNPrintf(locs, sizeof(locs), "x %s, y %s, z %s", PPELocations[sep->loc[0]], PPELocations[sep->loc[1]], PPELocations[sep->loc[2]]));
  if (nid) {
    PetscCall(PetscStrlcat(idf, " (identity rows on", sizeof(idf)));
    for (PetscInt f = 0; f < 6; f++)
      if (c->ident[f]) {
        PetscCall(PetscStrlcat(idf, " ", sizeof(idf)));
        PetscCall(PetscStrlcat(idf, face_name[f], sizeof(idf)));
      }
    PetscCall(PetscStrlcat(idf, ")", sizeof(idf)));
  }
  sep->source = (c->approx && c->misfit > PPE_INFER_RTOL) ? PPE_SEPARABLE_APPROXIMATE : PPE_SEPARABLE_INFERRED;
  sep->misfit = sep->source == PPE_SEPARABLE_APPROXIMATE ? c->misfit : 0;
  if (sep->source == PPE_SEPARABLE_APPROXIMATE)
    PetscCall(PetscSNPrintf(sep->how, sizeof(sep->how), "nearest separable operator to %s entries (misfit %.3g): %s, BCs %s%s, rowscale %s, %" PetscInt_FMT " rows", mtype, (double)c->misfit, locs, bcs, idf,
                            uniform ? "uniform" : zonly ? "varies in z" : "varies", c->nchecked));
  else
    PetscCall(PetscSNPrintf(sep->how, sizeof(sep->how), "inferred from %s entries: %s, BCs %s%s, rowscale %s, checked %" PetscInt_FMT " rows exactly (max rel. dev. %.1e)", mtype, locs, bcs, idf, uniform ? "uniform" : zonly ? "varies in z" : "varies",
                            c->nchecked, (double)c->misfit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InferReset(InferCtx *c)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(c->off[d]));
  PetscCall(PetscFree(c->start));
  PetscCall(PetscFree(c->row));
  PetscCall(PetscFree2(c->acc, c->all));
  PetscCall(PetscFree5(c->zd, c->zl, c->zh, c->zdi, c->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free a description that was not handed out (the public destroy lives in separable.c). */
static PetscErrorCode InferFreeSeparable(PPESeparable **sep)
{
  PetscFunctionBegin;
  if (!*sep) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*sep)->zlo));
  PetscCall(PetscFree((*sep)->zdi));
  PetscCall(PetscFree((*sep)->zhi));
  PetscCall(VecDestroy(&(*sep)->rowscale));
  PetscCall(VecDestroy(&(*sep)->idiag));
  PetscCall(PetscFree(*sep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InferRun(InferCtx *c, Mat A, DM da, const char *mtype, PPESeparable *sep)
{
  PetscBool zextra;

  PetscFunctionBegin;
  PetscCall(InferSetUpLayout(c, A, da));
  PetscCall(PetscCalloc5(c->M[2], &c->zd, c->M[2], &c->zl, c->M[2], &c->zh, c->M[2], &c->zdi, c->nloc, &c->r));
  PetscCall(InferReadRows(c, A));
  PetscCall(InferCheckDiagonal(c));
  PetscCall(InferBox(c));
  PetscCall(InferPlanes(c));
  PetscCall(InferFaces(c));
  PetscCall(InferZ(c, sep, &zextra));
  PetscCall(InferCheck(c));
  PetscCall(InferFinish(c, da, mtype, zextra, sep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPESeparableInferFromMat - infers the separable description of an assembled 7-point matrix
   on a 3D DMDA (dof 1, stencil width >= 1), checking every entry unless approximate is set.

   A may be AIJ (any AIJ subtype with MatGetRow), BAIJ or SBAIJ (converted to AIJ first).
*/
PetscErrorCode PPESeparableInferFromMat(Mat A, DM da, PetscBool approximate, PPESeparable **sep)
{
  InferCtx       c;
  Mat            B = NULL;
  MatType        type;
  PetscBool      isaij = PETSC_FALSE, isbaij = PETSC_FALSE, assembled;
  char           mtype[16], *aij = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidHeaderSpecific(da, DM_CLASSID, 2);
  PetscCheck(sep, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the description");
  *sep = NULL;
  PetscCall(MatGetType(A, &type));
  PetscCall(MatAssembled(A, &assembled));
  PetscCheck(assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Operator inference needs an assembled matrix");
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &isbaij, MATSEQBAIJ, MATMPIBAIJ, MATSEQSBAIJ, MATMPISBAIJ, ""));
  if (!isbaij) PetscCall(PetscStrstr(type, "aij", &aij)); /* AIJ and its subtypes */
  isaij = (PetscBool)(aij != NULL);
  PetscCheck(isaij || isbaij, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Operator inference reads the entries of AIJ, BAIJ or SBAIJ matrices, not of type %s", type);
  PetscCall(PetscStrncpy(mtype, isbaij ? (strstr(type, "sbaij") ? "SBAIJ" : "BAIJ") : "AIJ", sizeof(mtype)));
  if (isbaij) PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B));

  PetscCall(PetscLogEventBegin(PPE_SepInfer, A, 0, 0, 0));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.comm   = PetscObjectComm((PetscObject)A);
  c.approx = approximate;
  PetscCallMPI(MPI_Comm_rank(c.comm, &c.rank));
  PetscCallMPI(MPI_Comm_size(c.comm, &c.size));
  PetscCall(PetscNew(sep));
  ierr = InferRun(&c, B ? B : A, da, mtype, *sep);
  PetscCall(PetscLogEventEnd(PPE_SepInfer, A, 0, 0, 0));
  PetscCall(InferReset(&c));
  PetscCall(MatDestroy(&B));
  if (ierr) PetscCall(InferFreeSeparable(sep));
  PetscCall(ierr);
  PetscCall(PetscInfo(A, "%s; c = (%g, %g), sigma %g, singular %s\n", (*sep)->how, (double)(*sep)->c[0], (double)(*sep)->c[1], (double)(*sep)->sigma, PetscBools[(*sep)->singular]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
