/*
   PPETridiag's arrays in the memory of its back end, and the views of a block of lines that
   the kernels take.

   The solves (tdsolve.c) call the back end's table on arrays in its memory. On the host these
   are the batch's own arrays (no copy); on a device, copies of the coefficients, weights,
   lane arrays and factors made at set-up, which stay there until the next one, the device's
   boundary values of each line (2 per line, copied to the host for the exchange and back)
   and the fly kernels' scratch. The scratch covers the groups of lines of one kernel call:
   PPE_TD_G groups on the host (a block that stays in cache between the sweeps, its scratch
   reused by the next block), every group on a device (one launch).
*/
#include <ppekit/private/tridiagimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

/* n values of the host array h in the memory of t's back end: h itself on the host, whose
   memory that is (no copy); else a new array of the back end, h copied in when copy is set.
   NULL stays NULL. */
static PetscErrorCode Mirror(PPETridiag t, const PetscReal *h, size_t n, PetscBool copy, PetscReal **b)
{
  PetscFunctionBegin;
  *b = (PetscReal *)h;
  if (!h || t->bops == &PPEBackendOps_Host) PetscFunctionReturn(PETSC_SUCCESS);
  PPEBackendCall(t->bops, t->bops->alloc((void **)b, PetscMax(n, 1) * sizeof(PetscReal)));
  if (copy) PPEBackendCall(t->bops, t->bops->copy(*b, h, n * sizeof(PetscReal), PPE_DEV_H2D, t->bstream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host arrays of the batch and their places in t->arr, in one order. */
#define TD_NMIRROR 13
static void MirrorList(PPETridiag t, const PetscReal *src[TD_NMIRROR], const PetscReal **dst[TD_NMIRROR])
{
  PPETdArrays      *A             = &t->arr;
  const PetscReal  *s[TD_NMIRROR] = {t->a, t->ex, t->c, t->w, t->shift, t->mask, t->ip, t->q, t->al, t->be, t->last, t->rb0, t->rb1};
  const PetscReal **d[TD_NMIRROR] = {&A->a, &A->ex, &A->c, &A->w, &A->shift, &A->mask, &A->ip, &A->q, &A->al, &A->be, &A->last, (const PetscReal **)&A->rb0, (const PetscReal **)&A->rb1};

  for (int i = 0; i < TD_NMIRROR; i++) {
    src[i] = s[i];
    dst[i] = d[i];
  }
}

/*
   PPETridiagSetUpBackend - the table and stream of the batch's back end, and the batch's
   arrays in its memory (t->arr): coefficients, weights, lanes and factors (copied on a
   device), the boundary values (rb0, rb1) and the fly kernels' scratch; the vectors that hold
   a solve's host data.
*/
PetscErrorCode PPETridiagSetUpBackend(PPETridiag t)
{
  size_t           m = (size_t)t->m, nl = (size_t)t->ng * TD_SZ, pl = nl * m;
  size_t           lc = t->perline ? pl : m, lf = t->mode == PPE_TD_MODE_SHARED ? m : pl;
  const size_t     len[TD_NMIRROR] = {lc, lc, lc, m, nl, nl, lf, lf, lf, lf, nl, nl, nl};
  const PetscReal *src[TD_NMIRROR], **dst[TD_NMIRROR];
  PetscInt         groups;

  PetscFunctionBegin;
  PetscCall(PPEBackendStream(t->backend, &t->bops, &t->bstream));
  PetscCall(PetscMemzero(&t->arr, sizeof(t->arr)));
  MirrorList(t, src, dst);
  for (int i = 0; i < TD_NMIRROR; i++) { /* the boundary values are written by the kernels: not copied */
    PetscReal *p;

    PetscCall(Mirror(t, src[i], len[i], (PetscBool)(i < TD_NMIRROR - 2), &p));
    *dst[i] = p;
  }
  for (int packed = 0; packed < 2; packed++) { /* the vectors that hold a solve's host data (placed at each solve) */
    size_t   nd = packed ? pl : (t->nsys ? (size_t)(t->nsys - 1) * t->ls + (m - 1) * (size_t)t->ks + 1 : 0);
    PetscInt n;

    PetscCall(PetscIntCast((PetscInt64)nd, &n));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, &t->data[packed]));
  }
  groups = t->bops->tridiag_groups > 0 ? t->bops->tridiag_groups : t->ng;
  if (!t->precompute) PPEBackendCall(t->bops, t->bops->alloc((void **)&t->arr.scr, PetscMax((size_t)3 * groups * TD_SZ * m, 1) * sizeof(PetscReal)));
  t->arr.scrgroups = groups;
  PPEBackendCall(t->bops, t->bops->sync(t->bstream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free what PPETridiagSetUpBackend() made (before the host arrays are freed). */
PetscErrorCode PPETridiagResetBackend(PPETridiag t)
{
  const PetscReal *src[TD_NMIRROR], **dst[TD_NMIRROR];

  PetscFunctionBegin;
  if (!t->bops) PetscFunctionReturn(PETSC_SUCCESS);
  PPEBackendCall(t->bops, t->bops->sync(t->bstream));
  MirrorList(t, src, dst);
  for (int i = 0; i < TD_NMIRROR; i++)
    if (*dst[i] && *dst[i] != src[i]) PPEBackendCall(t->bops, t->bops->release((void *)*dst[i]));
  if (t->arr.scr) PPEBackendCall(t->bops, t->bops->release(t->arr.scr));
  PetscCall(VecDestroy(&t->data[0]));
  PetscCall(VecDestroy(&t->data[1]));
  PetscCall(PetscMemzero(&t->arr, sizeof(t->arr)));
  t->bops    = NULL;
  t->bstream = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Views of the block of lines that starts at line s0 (a multiple of SZ), as groups of SZ
   lines: in the packed layout each group is contiguous; in the natural layout the groups
   are consecutive lines of each row. Per-line arrays are packed (each group contiguous,
   streamed in both layouts). The arrays are those of the back end (t->arr); the scratch
   tiles start at the block's first group.
*/
void PPETridiagBlockArgs(const PPETridiag t, PetscScalar *d, PetscBool packed, PetscInt s0, PPETdArgs *x)
{
  const PPETdArrays *Ar = &t->arr;
  const long         SZ = TD_SZ, m = t->m, off = (long)(s0 / SZ) * m * SZ, tile = (long)Ar->scrgroups * TD_SZ * m;

#define TD_COEF(v)  (t->perline ? (ppe_td_carr){(v) + off, m * SZ, SZ, 1} : (ppe_td_carr){(v), 0, 1, 0})
#define TD_FACT(v)  ((v) ? (t->mode == PPE_TD_MODE_SHARED ? (ppe_td_carr){(v), 0, 1, 0} : (ppe_td_carr){(v) + off, m * SZ, SZ, 1}) : (ppe_td_carr){NULL, 0, 0, 0})
#define TD_LANE(v)  ((ppe_td_carr){(v) + s0, SZ, 0, 1})
#define TD_LANEW(v) ((ppe_td_arr){(v) + s0, SZ, 0, 1})
#define TD_SCR(j)   ((ppe_td_arr){Ar->scr ? Ar->scr + (j)*tile : NULL, m * SZ, SZ, 1})
  x->a     = TD_COEF(Ar->a);
  x->e     = TD_COEF(Ar->ex);
  x->c     = TD_COEF(Ar->c);
  x->w     = (ppe_td_carr){Ar->w, 0, 1, 0};
  x->shift = TD_LANE(Ar->shift);
  x->mask  = TD_LANE(Ar->mask);
  x->ip    = TD_FACT(Ar->ip);
  x->q     = TD_FACT(Ar->q);
  x->al    = TD_FACT(Ar->al);
  x->be    = TD_FACT(Ar->be);
  x->last  = Ar->last ? TD_LANE(Ar->last) : (ppe_td_carr){NULL, 0, 0, 0};
  if (packed) x->d = (ppe_td_arr){d + off, m * SZ, SZ, 1};
  else x->d = (ppe_td_arr){d + s0 * t->ls, SZ * t->ls, t->ks, t->ls};
  x->r0 = TD_LANEW(Ar->rb0);
  x->r1 = TD_LANEW(Ar->rb1);
  x->x0 = TD_LANE(Ar->rb0);
  x->x1 = TD_LANE(Ar->rb1);
  x->s  = TD_SCR(0);
  x->t  = TD_SCR(1);
  x->u  = TD_SCR(2);
#undef TD_COEF
#undef TD_FACT
#undef TD_LANE
#undef TD_LANEW
#undef TD_SCR
}
