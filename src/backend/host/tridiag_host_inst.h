/*
   Instances of the tridiagonal kernels for one instruction set, included by
   tridiag_host.c with PPE_TDI_SUFFIX (name suffix) and PPE_TDI_TARGET (target
   attribute) defined.

   A full block is PPE_TD_G groups of PPE_TRIDIAG_SZ lanes with unit lane stride; its
   views are rebuilt below with literal strides (shared: gs 0, rs 1, ls 0; per line:
   rs SZ, ls 1; per lane: gs SZ, rs 0) so that after inlining the lane loop is a
   fixed-length unit-stride loop the compiler vectorises and the group loop unrolls.
   One instance per kernel, fly or pre, and place of the coefficients and factors.
*/

#define PPE_TDI_CAT_(a, b) a##b
#define PPE_TDI_CAT(a, b)  PPE_TDI_CAT_(a, b)
#define PPE_TDI(name)      PPE_TDI_CAT(name, PPE_TDI_SUFFIX)

#define TD_FULL  ((ppe_td_lanes){0, PPE_TD_G, 0, PPE_TRIDIAG_SZ})
#define TD_SH(x) ((ppe_td_carr){(x).v, 0, 1, 0})
#define TD_PL(x) ((ppe_td_carr){(x).v, (x).gs, PPE_TRIDIAG_SZ, 1})
#define TD_LN(x) ((ppe_td_carr){(x).v, PPE_TRIDIAG_SZ, 0, 1})
#define TD_LW(x) ((ppe_td_arr){(x).v, PPE_TRIDIAG_SZ, 0, 1})
#define TD_DT(x) ((ppe_td_arr){(x).v, (x).gs, (x).rs, 1})
#define TD_SC(x) ((ppe_td_arr){(x).v, (x).gs, PPE_TRIDIAG_SZ, 1})
#define TD_K(CM, x) ((ppe_td_coefs){CM((x)->a), CM((x)->e), CM((x)->c), TD_SH((x)->w), TD_LN((x)->shift), TD_LN((x)->mask)})

/* CM: views of the coefficients, FM: views of the factors */
#define TD_CALL_THOMAS(CM, FM)      ppe_td_thomas(TD_FULL, n, CM(x->a), CM(x->c), FM(x->ip), TD_LN(x->last), TD_DT(x->d))
#define TD_CALL_THOMAS_FLY(CM, FM)  ppe_td_thomas_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->t), TD_DT(x->d))
#define TD_CALL_PTHOMAS(CM, FM)     ppe_td_pthomas(TD_FULL, n, CM(x->a), CM(x->c), FM(x->ip), FM(x->q), TD_LN(x->last), TD_DT(x->d))
#define TD_CALL_PTHOMAS_FLY(CM, FM) ppe_td_pthomas_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->t), TD_SC(x->u), TD_DT(x->d))
#define TD_CALL_REDUCE(CM, FM)      ppe_td_reduce(TD_FULL, n, CM(x->a), CM(x->c), FM(x->ip), TD_DT(x->d), TD_LW(x->r0), TD_LW(x->r1))
#define TD_CALL_REDUCE_FLY(CM, FM)  ppe_td_reduce_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->u), TD_DT(x->d), TD_LW(x->r0), TD_LW(x->r1))
#define TD_CALL_RECON(CM, FM)       ppe_td_recon(TD_FULL, n, FM(x->al), FM(x->be), TD_LN(x->x0), TD_LN(x->x1), TD_DT(x->d))
#define TD_CALL_RECON_FLY(CM, FM)   ppe_td_recon_fly(TD_FULL, n, TD_K(CM, x), TD_SC(x->s), TD_SC(x->t), TD_SC(x->u), TD_LN(x->x0), TD_LN(x->x1), TD_DT(x->d))

#define TD_INST(kname, CALL) \
  PPE_TDI_TARGET static void PPE_TDI(kname##_S)(long n, const PPETdArgs *x) \
  { \
    CALL(TD_SH, TD_SH); \
  } \
  PPE_TDI_TARGET static void PPE_TDI(kname##_F)(long n, const PPETdArgs *x) \
  { \
    CALL(TD_SH, TD_PL); \
  } \
  PPE_TDI_TARGET static void PPE_TDI(kname##_L)(long n, const PPETdArgs *x) \
  { \
    CALL(TD_PL, TD_PL); \
  }

TD_INST(Thomas, TD_CALL_THOMAS)
TD_INST(ThomasFly, TD_CALL_THOMAS_FLY)
TD_INST(PThomas, TD_CALL_PTHOMAS)
TD_INST(PThomasFly, TD_CALL_PTHOMAS_FLY)
TD_INST(Reduce, TD_CALL_REDUCE)
TD_INST(ReduceFly, TD_CALL_REDUCE_FLY)
TD_INST(Recon, TD_CALL_RECON)
TD_INST(ReconFly, TD_CALL_RECON_FLY)

/* [kernel][fly][mode] */
static void (*const PPE_TDI(TdFull)[PPE_TD_K_NUM][2][PPE_TD_MODE_NUM])(long, const PPETdArgs *) = {
  {{PPE_TDI(Thomas_S), PPE_TDI(Thomas_F), PPE_TDI(Thomas_L)}, {PPE_TDI(ThomasFly_S), PPE_TDI(ThomasFly_F), PPE_TDI(ThomasFly_L)}},
  {{PPE_TDI(PThomas_S), PPE_TDI(PThomas_F), PPE_TDI(PThomas_L)}, {PPE_TDI(PThomasFly_S), PPE_TDI(PThomasFly_F), PPE_TDI(PThomasFly_L)}},
  {{PPE_TDI(Reduce_S), PPE_TDI(Reduce_F), PPE_TDI(Reduce_L)}, {PPE_TDI(ReduceFly_S), PPE_TDI(ReduceFly_F), PPE_TDI(ReduceFly_L)}},
  {{PPE_TDI(Recon_S), PPE_TDI(Recon_F), PPE_TDI(Recon_L)}, {PPE_TDI(ReconFly_S), PPE_TDI(ReconFly_F), PPE_TDI(ReconFly_L)}},
};

#undef TD_INST
#undef TD_FULL
#undef TD_SH
#undef TD_PL
#undef TD_LN
#undef TD_LW
#undef TD_DT
#undef TD_SC
#undef TD_K
#undef TD_CALL_THOMAS
#undef TD_CALL_THOMAS_FLY
#undef TD_CALL_PTHOMAS
#undef TD_CALL_PTHOMAS_FLY
#undef TD_CALL_REDUCE
#undef TD_CALL_REDUCE_FLY
#undef TD_CALL_RECON
#undef TD_CALL_RECON_FLY
#undef PPE_TDI
#undef PPE_TDI_CAT
#undef PPE_TDI_CAT_
