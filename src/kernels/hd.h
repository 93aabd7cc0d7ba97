/*
   The qualifiers of the single-source bodies of this folder, which the host C compiler,
   nvcc and hipcc all read:

     PPE_HD         a body called from host code and from device threads
     PPE_HD_INLINE  the same, always inlined by GCC and clang on the host: the bodies whose
                    callers' constant strides and sizes must reach their loops (the host's
                    vectorised instances of tridiag.h and tsblock.h, compiled for AVX2 too)
*/
#ifndef PPE_KERNELS_HD_H
#define PPE_KERNELS_HD_H

#if defined(__CUDACC__) || defined(__HIPCC__)
  #define PPE_HD        __host__ __device__ static inline
  #define PPE_HD_INLINE __host__ __device__ static inline
#elif defined(__GNUC__)
  #define PPE_HD        static inline
  #define PPE_HD_INLINE static inline __attribute__((always_inline))
#else
  #define PPE_HD        static inline
  #define PPE_HD_INLINE static inline
#endif

/* Before a loop of a few iterations fixed at compile time (tile sizes, lanes): unrolled, so
   that its arrays of accumulators stay in registers (GCC does not unroll them at -O2, and the
   Gram tile then runs at a quarter of its speed, from the stack). */
#if defined(__CUDACC__) || defined(__HIPCC__)
  #define PPE_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
  #define PPE_UNROLL _Pragma("GCC unroll 16")
#else
  #define PPE_UNROLL
#endif

#endif
