/*
   The instruction sets of the host back ends (src/backend/host), one rule for every kernel.

   The hot loops of a kernel are written once, in a template <kernel>_host_body.h, and
   compiled once per instruction set by simd_instances.h: a generic instance for any CPU
   and, on x86-64 with GCC or clang, an AVX2 instance (the compiler vectorises the same loops
   for 256-bit registers), chosen at run time when the CPU has AVX2 (PPEHostHasAVX2()).
   Both instances do the same operations in the same order (no FMA contraction:
   -ffp-contract=off), so they give the same bits. -DPPE_NO_AVX2 keeps the generic
   instance only.

   In a template:
     PPE_HOST_TARGET                 the target attribute of the instance, before every function
     PPE_HOST_FN(name)               the instance's name of a function: name_Generic, name_AVX2
     PPE_HOST_INLINE, PPE_HOST_IVDEP helpers inlined into the instance, independent iterations
   In the back end that includes it:
     #define PPE_HOST_BODY "<kernel>_host_body.h"
     #include "simd_instances.h"     defines name_Generic (and name_AVX2) of every function
     PPE_HOST_DISPATCH(avx2, name, (args))
                                     calls name_AVX2 args when avx2 is true and the AVX2
                                     instance is compiled, else name_Generic args
*/
#ifndef PPE_BACKEND_HOST_SIMD_H
#define PPE_BACKEND_HOST_SIMD_H

#include <petscsys.h>

/* Whether the AVX2 instances are compiled: x86-64, GCC or clang (target attributes and
   __builtin_cpu_supports), not disabled by -DPPE_NO_AVX2. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(PPE_NO_AVX2)
  #define PPE_HOST_HAVE_AVX2 1
#else
  #define PPE_HOST_HAVE_AVX2 0
#endif

/* The target attribute of the AVX2 instances. */
#define PPE_HOST_TARGET_AVX2 __attribute__((target("avx2")))

/* Helpers inlined into each instance (so that they are compiled for its target). */
#if defined(__GNUC__)
  #define PPE_HOST_INLINE static inline __attribute__((always_inline))
#else
  #define PPE_HOST_INLINE static inline
#endif

/* A function kept out of its callers (its loop gets a frame and registers of its own). */
#if defined(__GNUC__)
  #define PPE_HOST_NOINLINE __attribute__((noinline))
#else
  #define PPE_HOST_NOINLINE
#endif

/* Before a loop whose iterations are independent (GCC's vectoriser takes it as a promise). */
#if defined(__GNUC__) && !defined(__clang__)
  #define PPE_HOST_IVDEP _Pragma("GCC ivdep")
#else
  #define PPE_HOST_IVDEP
#endif

#define PPE_HOST_CAT_(a, b) a##b
#define PPE_HOST_CAT(a, b)  PPE_HOST_CAT_(a, b)
#define PPE_HOST_FN(name)   PPE_HOST_CAT(name, PPE_HOST_SUFFIX)

#if PPE_HOST_HAVE_AVX2
  #define PPE_HOST_DISPATCH(avx2, name, args) ((avx2) ? name##_AVX2 args : name##_Generic args)
#else
  #define PPE_HOST_DISPATCH(avx2, name, args) ((void)(avx2), name##_Generic args)
#endif

/* Whether this CPU runs the AVX2 instances (tested once; PETSC_FALSE where they are not
   compiled). Defined in src/sys/backend.c. */
PETSC_INTERN PetscBool PPEHostHasAVX2(void);

#endif
