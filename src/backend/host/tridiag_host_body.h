/*
   Instances of the tridiagonal kernels for full blocks: the template that tridiag_host.c
   compiles once per instruction set (simd.h: PPE_HOST_FN names the instance's functions,
   PPE_HOST_TARGET is its target attribute).

   A full block is PPE_TD_G groups of PPE_TRIDIAG_SZ lanes with unit lane stride: in the
   packed layout each group is contiguous, in the natural layout the groups are consecutive
   lines of a row. An instance rebuilds the views with literal strides (shared: gs 0, rs 1,
   ls 0; per line and data: ls 1; per lane: rs 0, ls 1) and runs the one dispatch of the
   bodies, ppe_td_kernel(), with its kernel constant: after inlining, the lane loop is a
   fixed-length unit-stride loop the compiler vectorises. One instance per kernel, fly or
   pre, and place of the coefficients and factors (tridiag_host.c: TD_MODE_*).
*/

/* x's views with the strides of a full block as constants: coefficients shared by all lines
   (cshared) or per line, factors likewise (fshared). */
PPE_HOST_TARGET PPE_HOST_INLINE void PPE_HOST_FN(Full)(int k, int fly, int cshared, int fshared, long n, const PPETdArgs *x)
{
  const ppe_td_lanes R = {0, PPE_TD_G, 0, PPE_TRIDIAG_SZ};

#define TD_SH(X) ((ppe_td_carr){(X).v, 0, 1, 0})
#define TD_PL(X) ((ppe_td_carr){(X).v, (X).gs, (X).rs, 1})
#define TD_CO(X) (cshared ? TD_SH(X) : TD_PL(X))
#define TD_FA(X) (fshared ? TD_SH(X) : TD_PL(X))
#define TD_LN(X) ((ppe_td_carr){(X).v, (X).gs, 0, 1})
#define TD_LW(X) ((ppe_td_arr){(X).v, (X).gs, 0, 1})
#define TD_DT(X) ((ppe_td_arr){(X).v, (X).gs, (X).rs, 1})
  const PPETdArgs y = {TD_CO(x->a),  TD_CO(x->e),  TD_CO(x->c),  TD_SH(x->w),  TD_LN(x->shift), TD_LN(x->mask), /* coefficients */
                       TD_FA(x->ip), TD_FA(x->q),  TD_FA(x->al), TD_FA(x->be), TD_LN(x->last),                  /* factors */
                       TD_DT(x->d),  TD_LW(x->r0), TD_LW(x->r1), TD_LN(x->x0), TD_LN(x->x1),                    /* data, boundary values */
                       TD_DT(x->s),  TD_DT(x->t),  TD_DT(x->u)};                                                /* scratch */
#undef TD_SH
#undef TD_PL
#undef TD_CO
#undef TD_FA
#undef TD_LN
#undef TD_LW
#undef TD_DT
  ppe_td_kernel(k, fly, R, n, &y);
}

/* The instances of kernel k, pre-computed and fly, for coefficients and factors shared (_S),
   coefficients shared and factors per line (_F), both per line (_L); a row of the table. */
#define TD_INST1(name, k, fly) \
  PPE_HOST_TARGET static void PPE_HOST_FN(name##_S)(long n, const PPETdArgs *x) \
  { \
    PPE_HOST_FN(Full)(k, fly, 1, 1, n, x); \
  } \
  PPE_HOST_TARGET static void PPE_HOST_FN(name##_F)(long n, const PPETdArgs *x) \
  { \
    PPE_HOST_FN(Full)(k, fly, 1, 0, n, x); \
  } \
  PPE_HOST_TARGET static void PPE_HOST_FN(name##_L)(long n, const PPETdArgs *x) \
  { \
    PPE_HOST_FN(Full)(k, fly, 0, 0, n, x); \
  }
#define TD_INST(name, k) TD_INST1(name, k, 0) TD_INST1(name##_fly, k, 1)
#define TD_MODES(name) \
  { \
    PPE_HOST_FN(name##_S), PPE_HOST_FN(name##_F), PPE_HOST_FN(name##_L) \
  }
#define TD_ROW(name, k) {TD_MODES(name), TD_MODES(name##_fly)},

PPE_TD_KERNELS(TD_INST)

/* [kernel][fly][mode] */
static void (*const PPE_HOST_FN(TdFull)[PPE_TD_K_NUM][2][TD_MODE_NUM])(long, const PPETdArgs *) = {PPE_TD_KERNELS(TD_ROW)};

/* Kernel k, fly or pre-computed, of a full block with the strides of mode. */
PPE_HOST_TARGET static void PPE_HOST_FN(RunFull)(int k, int fly, int mode, long n, const PPETdArgs *x)
{
  PPE_HOST_FN(TdFull)[k][fly][mode](n, x);
}

#undef TD_INST1
#undef TD_INST
#undef TD_MODES
#undef TD_ROW
