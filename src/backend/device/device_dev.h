/*
   Memory, streams and device discovery of a device back end, and its table of launchers
   (PPEBackendOps_CUDA, _HIP or _Emu), whose copies and reductions count what crosses
   between host and device memory. The emulation's "device memory" is host memory and its
   streams are empty handles: every launch has finished when it returns.
*/
#include "ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bytes per GiB, for the device's memory in its name */
#define PPE_DEV_GIB 1073741824.0

static const char *PPE_DEV_NAME(ErrStr)(int err)
{
  if (err >= PPE_DEV_FFT_ERR) {
#if defined(PPE_DEV_CUDA)
    return "cuFFT error (cufftResult: the code less 100000)";
#elif defined(PPE_DEV_HIP)
    return "VkFFT error (VkFFTResult: the code less 100000)";
#else
    return "FFTW could not make a plan";
#endif
  }
#if defined(PPE_DEV_EMU)
  return err == 1 ? "out of host memory" : "unknown error";
#else
  return PPE_DEV_ERRSTR((ppe_dev_err_t)err);
#endif
}

/* Devices visible; an error (no driver, no device) is returned as the runtime's code. */
static int PPE_DEV_NAME(Count)(int *ndev)
{
#if defined(PPE_DEV_EMU)
  *ndev = 1;
  return 0;
#else
  int n = 0;
  PPE_DEV_TRY(PPE_DEV_RT(GetDeviceCount)(&n));
  *ndev = n;
  return 0;
#endif
}

static int PPE_DEV_NAME(DeviceName)(int dev, char *name, size_t len)
{
#if defined(PPE_DEV_EMU)
  (void)dev;
  snprintf(name, len, "host emulation of the device launches");
  return 0;
#elif defined(PPE_DEV_CUDA)
  struct cudaDeviceProp p;
  PPE_DEV_TRY(cudaGetDeviceProperties(&p, dev));
  snprintf(name, len, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor, (double)p.totalGlobalMem / PPE_DEV_GIB);
  return 0;
#else
  hipDeviceProp_t p;
  PPE_DEV_TRY(hipGetDeviceProperties(&p, dev));
  snprintf(name, len, "%s (%s, %.1f GiB)", p.name, p.gcnArchName, (double)p.totalGlobalMem / PPE_DEV_GIB);
  return 0;
#endif
}

static int PPE_DEV_NAME(Select)(int dev)
{
#if defined(PPE_DEV_EMU)
  (void)dev;
  return 0;
#else
  return (int)PPE_DEV_RT(SetDevice)(dev);
#endif
}

static int PPE_DEV_NAME(Alloc)(void **p, size_t bytes)
{
#if defined(PPE_DEV_EMU)
  *p = malloc(bytes ? bytes : 1);
  return *p ? 0 : 1;
#else
  return (int)PPE_DEV_RT(Malloc)(p, bytes ? bytes : 1);
#endif
}

static int PPE_DEV_NAME(Release)(void *p)
{
#if defined(PPE_DEV_EMU)
  free(p);
  return 0;
#else
  return p ? (int)PPE_DEV_RT(Free)(p) : 0;
#endif
}

static int PPE_DEV_NAME(StreamCreate)(void **stream)
{
#if defined(PPE_DEV_EMU)
  static char handle;
  *stream = &handle;
  return 0;
#else
  ppe_dev_stream_t s;
  PPE_DEV_TRY(PPE_DEV_RT(StreamCreateWithFlags)(&s, PPE_DEV_CAT(PPE_DEV_RT(Stream), NonBlocking)));
  *stream = (void *)s;
  return 0;
#endif
}

static int PPE_DEV_NAME(StreamDestroy)(void *stream)
{
#if defined(PPE_DEV_EMU)
  (void)stream;
  return 0;
#else
  return stream ? (int)PPE_DEV_RT(StreamDestroy)((ppe_dev_stream_t)stream) : 0;
#endif
}

/* The entries that cross between host and device memory, counted (ppe_dev_traffic): the
   copies, and the numbers the reductions return to the host. */
static int PPE_DEV_NAME(CopyCounted)(void *dst, const void *src, size_t bytes, ppe_dev_copy_kind kind, void *stream)
{
  if (kind != PPE_DEV_D2D) {
    if (ppe_dev_traffic_count.halo) ppe_dev_traffic_count.halo_bytes += (double)bytes;
    else ppe_dev_traffic_count.bytes += (double)bytes;
  }
  return PPE_DEV_NAME(PPEDevCopy)(dst, src, bytes, kind, stream);
}

static int PPE_DEV_NAME(DotCounted)(long n, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream)
{
  ppe_dev_traffic_count.bytes += 8.0 * nd;
  return PPE_DEV_NAME(PPEDevDot)(n, nd, y, u0, u1, work, s, stream);
}

static int PPE_DEV_NAME(SumCounted)(long n, const double *x, double *work, double *s, void *stream)
{
  ppe_dev_traffic_count.bytes += 8.0;
  return PPE_DEV_NAME(PPEDevSum)(n, x, work, s, stream);
}

static int PPE_DEV_NAME(StencilDotCounted)(const ppe_dev_box *B, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream)
{
  ppe_dev_traffic_count.bytes += 8.0 * nd;
  return PPE_DEV_NAME(PPEDevStencilDot)(B, nd, y, u0, u1, work, s, stream);
}

static int PPE_DEV_NAME(UpdateRCounted)(long n, double omega, const double *t, const double *rt, double *r, double *work, double *s, void *stream)
{
  ppe_dev_traffic_count.bytes += 16.0;
  return PPE_DEV_NAME(PPEDevBCGSUpdateR)(n, omega, t, rt, r, work, s, stream);
}

static int PPE_DEV_NAME(GramCounted)(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *work, double *out, void *stream)
{
  ppe_dev_traffic_count.bytes += 8.0 * nx * ny;
  return PPE_DEV_NAME(PPEDevTSGram)(n, nx, x, ny, y, band, work, out, stream);
}

/* the table is host data: not compiled in the device passes of nvcc and hipcc */
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
PPE_DEV_EXTERN const PPEBackendOps PPE_DEV_NAME(PPEBackendOps) = {
  PPE_DEV_STR,
  PPE_DEV_NAME(Count),
  PPE_DEV_NAME(DeviceName),
  PPE_DEV_NAME(Select),
  PPE_DEV_NAME(ErrStr),
  PPE_DEV_NAME(Alloc),
  PPE_DEV_NAME(Release),
  PPE_DEV_NAME(CopyCounted),
  PPE_DEV_NAME(StreamCreate),
  PPE_DEV_NAME(StreamDestroy),
  PPE_DEV_NAME(PPEDevSync),
  PPE_DEV_NAME(PPEDevStencil),
  PPE_DEV_NAME(DotCounted),
  PPE_DEV_NAME(SumCounted),
  PPE_DEV_NAME(PPEDevCIScale),
  PPE_DEV_NAME(PPEDevCIFirst),
  PPE_DEV_NAME(PPEDevCIStep),
  PPE_DEV_NAME(PPEDevBCGSAxpy),
  PPE_DEV_NAME(PPEDevBCGSUpdateX),
  PPE_DEV_NAME(UpdateRCounted),
  PPE_DEV_NAME(PPEDevBCGSUpdateP),
  PPE_DEV_NAME(PPEDevTridiag),
  0, /* tridiag_groups: every group in one launch */
  PPE_DEV_NAME(PPEDevTileILUXYZ),
  PPE_DEV_NAME(PPEDevTileILUZYX),
  PPE_DEV_NAME(PPEDevTileILUGather),
  PPE_DEV_NAME(PPEDevTileILUScatter),
  NULL, /* tileilu_fused: the three launches */
  PPE_DEV_NAME(GramCounted),
  PPE_DEV_NAME(PPEDevTSCombine),
  PPE_DEV_NAME(PPEDevTSAxpy),
  PPE_DEV_NAME(PPEDevTSCheb),
  PPE_DEV_NAME(PPEDevTPCopy),
  PPE_DEV_NAME(PPEDevFFTPre),
  PPE_DEV_NAME(PPEDevFFTPlan),
  PPE_DEV_NAME(PPEDevFFTExec),
  PPE_DEV_NAME(PPEDevFFTDestroy),
  PPE_DEV_NAME(PPEDevFFTPost),
  PPE_DEV_NAME(PPEDevAXPBYC),
  PPE_DEV_NAME(StencilDotCounted),
  NULL, /* stencil_rowdot: stencil, then stencil_dot */
  NULL, /* stencil_ci_sweep: one launch per Chebyshev step */
};
#endif
