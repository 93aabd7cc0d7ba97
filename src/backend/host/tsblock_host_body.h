/*
   Host loops of the tall-skinny block kernels: the template that tsblock_host.c compiles
   once per instruction set (simd.h: PPE_HOST_FN names the instance's functions,
   PPE_HOST_TARGET is its target attribute). The rows are cut into chunks of PPE_TS_CHUNK so
   that every column of a chunk is read from memory once and reused from cache by all the
   tiles that need it.
*/

PPE_HOST_TARGET static void PPE_HOST_FN(Gram)(long n, int nx, const double *const *xp, int ny, const double *const *yp, int band, double *acc)
{
  int nta = (nx + PPE_TS_TA - 1) / PPE_TS_TA, ntb = (ny + PPE_TS_TB - 1) / PPE_TS_TB, nxp = nta * PPE_TS_TA;

  for (long p0 = 0; p0 < n; p0 += PPE_TS_CHUNK) {
    long p1 = p0 + PPE_TS_CHUNK < n ? p0 + PPE_TS_CHUNK : n;
    for (int tb = 0; tb < ntb; tb++) {
      int bmax = (tb + 1) * PPE_TS_TB - 1 < ny - 1 ? (tb + 1) * PPE_TS_TB - 1 : ny - 1;
      for (int ta = 0; ta < nta; ta++) {
        double t[PPE_TS_TA * PPE_TS_TB];
        if (bmax < ta * PPE_TS_TA - band) continue; /* the whole tile lies below the band */
        ppe_ts_gram_tile(xp + ta * PPE_TS_TA, yp + tb * PPE_TS_TB, p0, p1, t);
        for (int b = 0; b < PPE_TS_TB; b++)
          for (int a = 0; a < PPE_TS_TA; a++) acc[(ta * PPE_TS_TA + a) + nxp * (tb * PPE_TS_TB + b)] += t[a + PPE_TS_TA * b];
      }
    }
  }
}

PPE_HOST_TARGET static void PPE_HOST_FN(Combine)(long n, int k, const double *const *q, int m, double *const *sp, const double *Bp)
{
  for (long p0 = 0; p0 < n; p0 += PPE_TS_CHUNK) {
    long p1 = p0 + PPE_TS_CHUNK < n ? p0 + PPE_TS_CHUNK : n;
    for (int jt = 0; jt < m; jt += PPE_TS_TB) {
      double *t[PPE_TS_TB];
      for (int j = 0; j < PPE_TS_TB; j++) t[j] = sp[jt + j] + p0;
      ppe_ts_combine_tile(k, q, (const double *const *)(sp + jt), Bp + (size_t)k * jt, k, m - jt < PPE_TS_TB ? m - jt : PPE_TS_TB, p0, p1, t);
    }
  }
}

PPE_HOST_TARGET static void PPE_HOST_FN(Axpy)(long n, int k, const double *const *q, const double *const *aq, const double *a, double *x, double *r)
{
  ppe_ts_axpy_rows(k, q, aq, a, 0, n, x, r);
}

PPE_HOST_TARGET static void PPE_HOST_FN(Cheb)(long n, double c1, const double *az, double c2, const double *z, const double *zold, double *out)
{
  ppe_ts_cheb_rows(c1, az, c2, z, zold, 0, n, out);
}
