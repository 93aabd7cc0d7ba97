/*
   The host back end as a table (PPEBackendOps_Host): the same interface as the device back
   ends (src/backend/device/device.h), so that the library calls every back end the same way.

   Its memory is host memory: alloc and release are malloc and free, a copy is a plain copy
   (between two host arrays; the host never stages anything), streams are empty handles and a
   launch has finished when it returns, so sync does nothing. The launchers are the host's own
   (src/backend/host/<part>_host.c): chunked loops over the single-source bodies of
   src/kernels, with their instruction-set instances (simd.h). Nothing is counted as host to
   device traffic. Also the one definition of that count (ppe_dev_traffic_count), which the
   device back ends add to.
*/
#include <backend/host/host.h>

#include <stdlib.h>
#include <string.h>

ppe_dev_traffic ppe_dev_traffic_count;

static int HostCount(int *ndev)
{
  *ndev = 1;
  return 0;
}

static int HostDeviceName(int dev, char *name, size_t len)
{
  (void)dev;
  if (len) {
    strncpy(name, "host", len - 1);
    name[len - 1] = 0;
  }
  return 0;
}

static int HostSelect(int dev)
{
  (void)dev;
  return 0;
}

static const char *HostErrStr(int err)
{
  return err == 1 ? "out of host memory" : (err == 2 ? "arguments outside what the kernel supports" : "unknown error");
}

/* aligned for the AVX2 loops */
#define PPE_HOST_ALIGN 64

static int HostAlloc(void **p, size_t bytes)
{
  size_t n = (bytes + PPE_HOST_ALIGN - 1) / PPE_HOST_ALIGN * PPE_HOST_ALIGN;

  *p = aligned_alloc(PPE_HOST_ALIGN, n ? n : PPE_HOST_ALIGN);
  return *p ? 0 : 1;
}

static int HostRelease(void *p)
{
  free(p);
  return 0;
}

static int HostCopy(void *dst, const void *src, size_t bytes, ppe_dev_copy_kind kind, void *stream)
{
  (void)kind;
  (void)stream;
  if (bytes && dst != src) memmove(dst, src, bytes);
  return 0;
}

static int HostStreamCreate(void **stream)
{
  static char handle;

  *stream = &handle;
  return 0;
}

static int HostStreamDestroy(void *stream)
{
  (void)stream;
  return 0;
}

static int HostSync(void *stream)
{
  (void)stream;
  return 0;
}

const PPEBackendOps PPEBackendOps_Host = {
  .name           = "host",
  .count          = HostCount,
  .device_name    = HostDeviceName,
  .select         = HostSelect,
  .errstr         = HostErrStr,
  .alloc          = HostAlloc,
  .release        = HostRelease,
  .copy           = HostCopy,
  .stream_create  = HostStreamCreate,
  .stream_destroy = HostStreamDestroy,
  .sync           = HostSync,

  /* the operator (stencil_host.c) */
  .stencil          = PPEHostStencil,
  .stencil_dot      = PPEHostStencilDot,
  .stencil_rowdot   = PPEHostStencilRowDot,
  .stencil_ci_sweep = PPEHostStencilCISweep,

  /* Krylov and Chebyshev vector kernels (krylov_host.c) */
  .dot           = PPEHostDot,
  .sum           = PPEHostSum,
  .ci_scale      = PPEHostCIScale,
  .ci_first      = PPEHostCIFirst,
  .ci_step       = PPEHostCIStep,
  .bcgs_axpy     = PPEHostBCGSAxpy,
  .bcgs_update_x = PPEHostBCGSUpdateX,
  .bcgs_update_r = PPEHostBCGSUpdateR,
  .bcgs_update_p = PPEHostBCGSUpdateP,
  .axpbyc        = PPEHostAXPBYC,

  /* batched tridiagonal solves (tridiag_host.c), blocks of lines that stay in cache */
  .tridiag        = PPEHostTridiag,
  .tridiag_groups = PPE_TD_G,

  /* tile ILU (tileilu_host.c) */
  .tileilu_xyz     = PPEHostTileILUXYZ,
  .tileilu_zyx     = PPEHostTileILUZYX,
  .tileilu_gather  = PPEHostTileILUGather,
  .tileilu_scatter = PPEHostTileILUScatter,
  .tileilu_fused   = PPEHostTileILUFused,

  /* tall-skinny blocks (tsblock_host.c) */
  .ts_gram    = PPEHostTSGram,
  .ts_combine = PPEHostTSCombine,
  .ts_axpy    = PPEHostTSAxpy,
  .ts_cheb    = PPEHostTSCheb,

  /* box copies of the transposes (transpose_host.c) */
  .tp_copy = PPEHostTPCopy,

  /* transforms of PC fftptdma */
  .fft_pre     = NULL,
  .fft_plan    = NULL,
  .fft_exec    = NULL,
  .fft_destroy = NULL,
  .fft_post    = NULL,
};
