/*
   Device launchers of the real transforms of PC fftptdma (src/kernels/fft.h): the pre and
   post passes, one thread per element of the complex buffer and per output, and the batched
   complex DFT between them from the back end's FFT library:

     CUDA  cuFFT, one Z2Z plan per (L, lines)
     HIP   VkFFT (header-only, its HIP back end; kernels compiled at plan time by hipRTC)
     emu   FFTW (the host's FFT library stands in for the device's)

   Errors of the FFT library are returned as PPE_DEV_FFT_ERR + its own code, and the failures
   of this file as PPE_DEV_FFT_ERR + one of the codes below.
*/
#include "ops.h"

#include <stdlib.h>
#if defined(PPE_DEV_CUDA)
  #include <cufft.h>
#elif defined(PPE_DEV_HIP)
  #define VKFFT_BACKEND 2
  #include <hip/hiprtc.h>
  #include <vkFFT.h>
#else
  #include <fftw3.h>
#endif

/* Failures of this file (added to PPE_DEV_FFT_ERR): */
#define PPE_DEV_FFT_NOPLAN 1   /* emu: FFTW could not make the plan */
#define PPE_DEV_FFT_BUFFER 2   /* emu: executed on another buffer than the one planned */
#define PPE_DEV_FFT_NOMEM  999 /* no host memory for the plan's handle */

typedef struct {
  ppe_fft_lines F;
  const double *x;
  double       *z, *ends;
} ppe_dev_fft_pre_args;

typedef struct {
  ppe_fft_lines F;
  const double *z, *ends;
  double       *y;
} ppe_dev_fft_post_args;

PPE_DEV_KERNEL(ppe_dev_fft_pre, ppe_dev_fft_pre_args)
{
  ppe_fft_pre(&a->F, a->x, t / a->F.L, t % a->F.L, a->z, a->ends);
}

PPE_DEV_KERNEL(ppe_dev_fft_post, ppe_dev_fft_post_args)
{
  ppe_fft_post(&a->F, a->z, a->ends, t / a->F.n, t % a->F.n, a->y);
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTPre)(const ppe_fft_lines *F, const double *x, double *z, double *ends, void *stream)
{
  ppe_dev_fft_pre_args a = {*F, x, z, ends};

  PPE_DEV_LAUNCH(ppe_dev_fft_pre, F->lines * F->L, stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTPost)(const ppe_fft_lines *F, const double *z, const double *ends, double *y, void *stream)
{
  ppe_dev_fft_post_args a = {*F, z, ends, y};

  PPE_DEV_LAUNCH(ppe_dev_fft_post, F->lines * F->n, stream, a);
  return 0;
}

/* The batched forward complex DFT of `lines` contiguous lines of L values, in place on z
   (the buffer the plan is made with). */
#if defined(PPE_DEV_CUDA)
typedef struct {
  cufftHandle h;
} ppe_dev_fft_plan;
#elif defined(PPE_DEV_HIP)
typedef struct {
  VkFFTApplication app;
  hipDevice_t      dev;
  hipStream_t      stream;
  uint64_t         bytes;
  void            *buf;
} ppe_dev_fft_plan;
#else
typedef struct {
  fftw_plan p;
  double   *z;
} ppe_dev_fft_plan;
#endif

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTPlan)(long L, long lines, double *z, void **plan, void *stream)
{
  ppe_dev_fft_plan *P = (ppe_dev_fft_plan *)calloc(1, sizeof(ppe_dev_fft_plan));
  int               e = 0;

  *plan = NULL;
  if (!P) return PPE_DEV_FFT_ERR + PPE_DEV_FFT_NOMEM;
#if defined(PPE_DEV_CUDA)
  {
    cufftResult r = cufftPlan1d(&P->h, (int)L, CUFFT_Z2Z, (int)lines);
    if (r == CUFFT_SUCCESS) {
      r = cufftSetStream(P->h, (cudaStream_t)stream);
      if (r != CUFFT_SUCCESS) cufftDestroy(P->h);
    }
    e = r == CUFFT_SUCCESS ? 0 : PPE_DEV_FFT_ERR + (int)r;
  }
#elif defined(PPE_DEV_HIP)
  {
    VkFFTConfiguration c;
    VkFFTResult        r;
    hipError_t         he = hipGetDevice(&P->dev);

    if (he != hipSuccess) e = (int)he;
    else {
      memset(&c, 0, sizeof(c));
      P->stream         = (hipStream_t)stream;
      P->bytes          = (uint64_t)L * (uint64_t)lines * 2 * sizeof(double);
      P->buf            = z;
      c.FFTdim          = 1;
      c.size[0]         = (uint64_t)L;
      c.numberBatches   = (uint64_t)lines;
      c.doublePrecision = 1;
      c.device          = &P->dev;
      c.stream          = &P->stream;
      c.num_streams     = 1;
      c.bufferSize      = &P->bytes;
      c.buffer          = &P->buf;
      r                 = initializeVkFFT(&P->app, c);
      e                 = r == VKFFT_SUCCESS ? 0 : PPE_DEV_FFT_ERR + (int)r;
    }
  }
#else
  {
    /* FFTW's guru64 interface: sizes and strides as ptrdiff_t, no int overflow */
    fftw_iodim64 d = {(ptrdiff_t)L, 1, 1}, h = {(ptrdiff_t)lines, (ptrdiff_t)L, (ptrdiff_t)L};

    (void)stream;
    P->z = z;
    P->p = fftw_plan_guru64_dft(1, &d, 1, &h, (fftw_complex *)z, (fftw_complex *)z, FFTW_FORWARD, FFTW_ESTIMATE);
    e    = P->p ? 0 : PPE_DEV_FFT_ERR + PPE_DEV_FFT_NOPLAN;
  }
#endif
  if (e) free(P);
  else *plan = P;
  return e;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTExec)(void *plan, double *z, void *stream)
{
  ppe_dev_fft_plan *P = (ppe_dev_fft_plan *)plan;

  (void)stream;
#if defined(PPE_DEV_CUDA)
  {
    cufftResult r = cufftExecZ2Z(P->h, (cufftDoubleComplex *)z, (cufftDoubleComplex *)z, CUFFT_FORWARD);
    return r == CUFFT_SUCCESS ? 0 : PPE_DEV_FFT_ERR + (int)r;
  }
#elif defined(PPE_DEV_HIP)
  {
    VkFFTLaunchParams lp;
    VkFFTResult       r;
    void             *buf = z;

    memset(&lp, 0, sizeof(lp));
    lp.buffer = &buf;
    r         = VkFFTAppend(&P->app, -1, &lp);
    return r == VKFFT_SUCCESS ? 0 : PPE_DEV_FFT_ERR + (int)r;
  }
#else
  if (z != P->z) return PPE_DEV_FFT_ERR + PPE_DEV_FFT_BUFFER;
  fftw_execute(P->p);
  return 0;
#endif
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTDestroy)(void *plan)
{
  ppe_dev_fft_plan *P = (ppe_dev_fft_plan *)plan;

  if (!P) return 0;
#if defined(PPE_DEV_CUDA)
  cufftDestroy(P->h);
#elif defined(PPE_DEV_HIP)
  deleteVkFFT(&P->app);
#else
  fftw_destroy_plan(P->p);
#endif
  free(P);
  return 0;
}
