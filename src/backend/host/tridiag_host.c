/*
   Host launcher of the batched tridiagonal kernels (the back-end table's tridiag entry): the
   one dispatch of src/kernels/tridiag.h, ppe_td_kernel(), run on the block of lanes as given,
   or, for a full block (PPE_TD_G groups of PPE_TRIDIAG_SZ lanes with unit lane stride) whose
   views have the strides of one of the three places of coefficients and factors, by an
   instance with those strides made constants (tridiag_host_body.h), compiled for the generic
   x86-64 target and for AVX2 (chosen when the CPU has it). The instance is read from the
   strides of the views, so the caller names none: any other block (partial groups, general
   natural strides, the reduced systems whose lanes are the lines a rank owns) takes the
   generic call, with the same bits.
*/
#include <backend/host/host.h>
#include <ppekit/private/tridiagimpl.h> /* PPE_TRIDIAG_SZ */
#include "simd.h"

/* Places of the coefficients and factors of the full-block instances. */
enum {
  TD_MODE_SHARED,  /* coefficients and factors shared by all lines */
  TD_MODE_FACTORS, /* coefficients shared, factors per line (a per-line shift) */
  TD_MODE_LINE,    /* coefficients and factors per line */
  TD_MODE_NUM
};

/* The instances of full blocks (tridiag_host_body.h), generic and AVX2. */
#define PPE_HOST_BODY "tridiag_host_body.h"
#include "simd_instances.h"

/* How a view of coefficients or factors is laid out: NULL (not given), shared by all lines
   (gs 0, rs 1, ls 0), per line (lane stride 1), or otherwise. */
enum {
  TD_VIEW_NONE,
  TD_VIEW_SHARED,
  TD_VIEW_LINE,
  TD_VIEW_OTHER
};

static int ViewKind(ppe_td_carr v)
{
  if (!v.v) return TD_VIEW_NONE;
  if (v.gs == 0 && v.rs == 1 && v.ls == 0) return TD_VIEW_SHARED;
  return v.ls == 1 ? TD_VIEW_LINE : TD_VIEW_OTHER;
}

/* The kind shared by the given views of a list (NONE where none is given), or OTHER. */
static int ListKind(int n, const ppe_td_carr *v)
{
  int kind = TD_VIEW_NONE;

  for (int i = 0; i < n; i++) {
    int ki = ViewKind(v[i]);

    if (ki == TD_VIEW_NONE) continue;
    if (kind != TD_VIEW_NONE && ki != kind) return TD_VIEW_OTHER;
    kind = ki;
  }
  return kind;
}

/* Whether every given view of a list has unit lane stride. */
static int UnitLanes(int n, const long *ls, const void *const *v)
{
  for (int i = 0; i < n; i++)
    if (v[i] && ls[i] != 1) return 0;
  return 1;
}

/* The full-block instance whose constant strides are those of every view of x that is given,
   or -1 (then the generic call). */
static int FullMode(ppe_td_lanes R, const PPETdArgs *x)
{
  const ppe_td_carr coef[] = {x->a, x->e, x->c}, fact[] = {x->ip, x->q, x->al, x->be};
  const void *const v[]  = {x->shift.v, x->mask.v, x->last.v, x->x0.v, x->x1.v, x->r0.v, x->r1.v, x->d.v, x->s.v, x->t.v, x->u.v};
  const long        ls[] = {x->shift.ls, x->mask.ls, x->last.ls, x->x0.ls, x->x1.ls, x->r0.ls, x->r1.ls, x->d.ls, x->s.ls, x->t.ls, x->u.ls};
  int               cm = ListKind(3, coef), fm = ListKind(4, fact), wk = ViewKind(x->w);

  if (R.g0 != 0 || R.g1 != PPE_TD_G || R.l0 != 0 || R.l1 != PPE_TRIDIAG_SZ) return -1;
  if (!UnitLanes((int)(sizeof(v) / sizeof(v[0])), ls, v) || (wk != TD_VIEW_NONE && wk != TD_VIEW_SHARED)) return -1;
  if (fm == TD_VIEW_NONE) fm = cm; /* the fly kernels read no factors */
  if (cm == TD_VIEW_SHARED) return fm == TD_VIEW_SHARED ? TD_MODE_SHARED : (fm == TD_VIEW_LINE ? TD_MODE_FACTORS : -1);
  return cm == TD_VIEW_LINE && fm == TD_VIEW_LINE ? TD_MODE_LINE : -1;
}

int PPEHostTridiag(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x, void *stream)
{
  int mode = FullMode(R, x);

  (void)stream;
  if (k < 0 || k >= PPE_TD_K_NUM) return 0; /* an unknown kernel does nothing, as on a device */
  if (mode < 0) ppe_td_kernel(k, fly ? 1 : 0, R, n, x);
  else PPE_HOST_DISPATCH(PPEHostHasAVX2(), RunFull, (k, fly ? 1 : 0, mode, n, x));
  return 0;
}
