/*
   The device dialect: the launch code of the device back ends is written once, in the files
   of this folder, and compiled three times by a translation unit that first defines one of

     PPE_DEV_CUDA  src/backend/cuda/<part>_cuda.cu    nvcc, CUDA runtime
     PPE_DEV_HIP   src/backend/hip/<part>_hip.hip     hipcc, HIP runtime
     PPE_DEV_EMU   src/backend/emu/<part>_emu.c       the C compiler: every GPU thread of a
                                                      launch is run by a host loop

   so the three back ends share the thread decomposition, the argument marshalling and the
   calls into the single-source bodies of src/kernels; the emulated one lets the host test
   suite run that code without a GPU (-ppe_backend emu).

   A kernel is a function of one thread index t in [0, n):

     PPE_DEV_KERNEL(name, args_type) { ... t ... a.field ... }
     PPE_DEV_LAUNCH(name, n, stream, args)     (returns through PPE_DEV_TRY on error)

   Its arguments travel by value in one struct of device pointers and scalars. Threads of one
   launch never synchronise with each other (no shared memory, no atomics): reductions are
   two launches (partial sums of fixed ranges, then their sum in a fixed order), so results
   never depend on the schedule and the emulation is exact.

   Every function of the back end returns an int: 0, or the runtime's error code, whose text
   is given by the back end's errstr().
*/
#ifndef PPE_BACKEND_DEVICE_DEV_H
#define PPE_BACKEND_DEVICE_DEV_H

#include <string.h>
#include "device.h"

#if defined(PPE_DEV_CUDA) + defined(PPE_DEV_HIP) + defined(PPE_DEV_EMU) != 1
  #error "define exactly one of PPE_DEV_CUDA, PPE_DEV_HIP, PPE_DEV_EMU before including dev.h"
#endif

#define PPE_DEV_CAT_(a, b) a##b
#define PPE_DEV_CAT(a, b)  PPE_DEV_CAT_(a, b)

/* threads per block of a launch */
#ifndef PPE_DEV_BLOCK
  #define PPE_DEV_BLOCK 256
#endif

#if defined(PPE_DEV_CUDA)
  #include <cuda_runtime.h>
  #define PPE_DEV_NAME(f) PPE_DEV_CAT(f, _CUDA)
  #define PPE_DEV_STR     "cuda"
  #define PPE_DEV_OK      cudaSuccess
  #define PPE_DEV_RT(f)   PPE_DEV_CAT(cuda, f)
typedef cudaStream_t ppe_dev_stream_t;
typedef cudaError_t  ppe_dev_err_t;
  #define PPE_DEV_RT_H2D    cudaMemcpyHostToDevice
  #define PPE_DEV_RT_D2H    cudaMemcpyDeviceToHost
  #define PPE_DEV_RT_D2D    cudaMemcpyDeviceToDevice
  #define PPE_DEV_ERRSTR(e) cudaGetErrorString(e)
#elif defined(PPE_DEV_HIP)
  #include <hip/hip_runtime.h>
  #define PPE_DEV_NAME(f)   PPE_DEV_CAT(f, _HIP)
  #define PPE_DEV_STR       "hip"
  #define PPE_DEV_OK        hipSuccess
  #define PPE_DEV_RT(f)     PPE_DEV_CAT(hip, f)
typedef hipStream_t ppe_dev_stream_t;
typedef hipError_t  ppe_dev_err_t;
  #define PPE_DEV_RT_H2D    hipMemcpyHostToDevice
  #define PPE_DEV_RT_D2H    hipMemcpyDeviceToHost
  #define PPE_DEV_RT_D2D    hipMemcpyDeviceToDevice
  #define PPE_DEV_ERRSTR(e) hipGetErrorString(e)
#else
  #define PPE_DEV_NAME(f) PPE_DEV_CAT(f, _Emu)
  #define PPE_DEV_STR     "emu"
  #define PPE_DEV_OK      0
typedef void *ppe_dev_stream_t;
typedef int   ppe_dev_err_t;
#endif

/* C linkage for what the C library calls */
#if defined(__cplusplus)
  #define PPE_DEV_EXTERN extern "C"
#else
  #define PPE_DEV_EXTERN
#endif

/* Return the error of an expression of type int (0: success). */
#define PPE_DEV_TRY(expr) \
  do { \
    int ppe_dev_e_ = (int)(expr); \
    if (ppe_dev_e_) return ppe_dev_e_; \
  } while (0)

/* The thread function gets its launch's arguments as a pointer `a` (to the kernel's by-value
   parameter on a device, to the launch's copy in the emulation): write a->field. */
#if defined(PPE_DEV_CUDA) || defined(PPE_DEV_HIP)
  #define PPE_DEV_FN __device__ static inline
  /* one thread per index t < n; blocks of PPE_DEV_BLOCK threads */
  #define PPE_DEV_KERNEL(name, Args) \
    __device__ static inline void name##_thread(long t, const Args *a); \
    __global__ static void        name(long n, Args a) \
    { \
      long t = (long)blockIdx.x * blockDim.x + threadIdx.x; \
      if (t < n) name##_thread(t, &a); \
    } \
    __device__ static inline void name##_thread(long t, const Args *a)
  #define PPE_DEV_LAUNCH(name, n, stream, args) \
    do { \
      long ppe_dev_n_ = (long)(n); \
      if (ppe_dev_n_ > 0) { \
        name<<<(unsigned)((ppe_dev_n_ + PPE_DEV_BLOCK - 1) / PPE_DEV_BLOCK), PPE_DEV_BLOCK, 0, (ppe_dev_stream_t)(stream)>>>(ppe_dev_n_, args); \
        PPE_DEV_TRY(PPE_DEV_RT(GetLastError)()); \
      } \
    } while (0)
#else
  #define PPE_DEV_FN static inline
  #define PPE_DEV_KERNEL(name, Args) \
    static inline void name##_thread(long t, const Args *a); \
    static void        name(long n, Args a) \
    { \
      for (long t = 0; t < n; t++) name##_thread(t, &a); \
    } \
    static inline void name##_thread(long t, const Args *a)
  #define PPE_DEV_LAUNCH(name, n, stream, args) \
    do { \
      (void)(stream); \
      name((long)(n), args); \
    } while (0)
#endif

#endif
