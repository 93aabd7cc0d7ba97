/*
   Private header of plugins/: what the KSP and PC types of PPEKit share.
   - The methods a type composes, listed once in a table of PPE_METHOD() rows: its create
     composes them all and its destroy removes them all (PPEComposeMethods()), so that the
     two cannot disagree.
   - The public setters and getters of two or three values (PPE_API_SETTER2, PPE_API_GETTER2,
     PPE_API_GETTER3), beside the one-value ones of ppeimpl.h.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>

/* A method a type composes: the name PETSc looks it up by ("<Name>_C", the name the public
   function Name dispatches to, as in PPE_API_SETTER) and the type's function. */
typedef struct {
  const char *name;
  void (*fn)(void);
} PPEMethod;
#define PPE_METHOD(Name, f) \
  { \
    #Name "_C", (void (*)(void))(f) \
  }

/* Composes the n methods m on obj (compose true: at create), or removes them (false: at destroy). */
static inline PetscErrorCode PPEComposeMethods_Private(PetscObject obj, size_t n, const PPEMethod m[], PetscBool compose)
{
  PetscFunctionBegin;
  for (size_t i = 0; i < n; i++) PetscCall(PetscObjectComposeFunction(obj, m[i].name, compose ? m[i].fn : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#define PPEComposeMethods(obj, table, compose) PPEComposeMethods_Private((PetscObject)(obj), PETSC_STATIC_ARRAY_LENGTH(table), table, compose)

/* The public setter and getter of a setting of two values of one type (an interval, a
   pencil grid), and the getter of three values (of types Ta, Tb, Tc), as PPE_API_SETTER/GETTER
   of ppeimpl.h: Name(obj, a, b) checks the object and that a and b are the same on every rank
   (Kind: Int or Real), then calls the method the type composed as "Name_C" (nothing for another
   type); a getter Name(obj, &a, &b[, &c]), any pointer NULL for a value not wanted, calls
   "Name_C" (an error for another type). The manual page stands above each use. */
#define PPE_API_SETTER2(Name, Obj, obj, T, a, b, Kind) \
  PetscErrorCode Name(Obj obj, T a, T b) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, PPE_CLASSID_##Obj, 1); \
    PetscValidLogicalCollective##Kind(obj, a, 2); \
    PetscValidLogicalCollective##Kind(obj, b, 3); \
    PetscTryMethod(obj, #Name "_C", (Obj, T, T), (obj, a, b)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define PPE_API_GETTER2(Name, Obj, obj, T, a, b) \
  PetscErrorCode Name(Obj obj, T *a, T *b) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, PPE_CLASSID_##Obj, 1); \
    PetscUseMethod(obj, #Name "_C", (Obj, T *, T *), (obj, a, b)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define PPE_API_GETTER3(Name, Obj, obj, Ta, a, Tb, b, Tc, c) \
  PetscErrorCode Name(Obj obj, Ta *a, Tb *b, Tc *c) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, PPE_CLASSID_##Obj, 1); \
    PetscUseMethod(obj, #Name "_C", (Obj, Ta *, Tb *, Tc *), (obj, a, b, c)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
