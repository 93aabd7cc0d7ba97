/*
   Time spent blocked in MPI, for ppe-solve's split of a solve into local work and
   synchronisation waits (the latency model T(L) = T_local + S L of docs/ppe-study.md).

   Through MPI's profiling interface: ppe-solve defines the blocking calls that a solver waits
   in, the dynamic linker binds PETSc's, hypre's and PPEKit's calls to these definitions, and
   each forwards to its PMPI_ twin, adding the wall time spent inside to a counter while
   counting is on. The calls covered are the blocking collectives (reductions, all-to-all
   transposes, gathers, broadcasts, barriers) and the completion of point-to-point messages
   (MPI_Wait and its family, blocking receives): a halo exchange's wait for its neighbours is
   its MPI_Waitall. Time in non-blocking starts (MPI_Isend, MPI_Irecv, MPI_Iallreduce) is
   local work, as it does not wait.

   Only the executable defines these names, so the library itself is not affected; a program
   linked against another MPI profiling tool would see both.
*/
#include <mpi.h>

static int    wait_on = 0;
static double wait_s  = 0.0;

/* PPEWaitStart - start counting (from zero); PPEWaitStop - stop, return the seconds blocked */
void PPEWaitStart(void)
{
  wait_s  = 0.0;
  wait_on = 1;
}

double PPEWaitStop(void)
{
  wait_on = 0;
  return wait_s;
}

#define PPE_TIMED(call) \
  do { \
    if (wait_on) { \
      double t0_ = PMPI_Wtime(); \
      int    e_  = call; \
      wait_s += PMPI_Wtime() - t0_; \
      return e_; \
    } \
    return call; \
  } while (0)

int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  PPE_TIMED(PMPI_Allreduce(sb, rb, n, t, op, c));
}

int MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
  PPE_TIMED(PMPI_Reduce(sb, rb, n, t, op, root, c));
}

int MPI_Scan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  PPE_TIMED(PMPI_Scan(sb, rb, n, t, op, c));
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
  PPE_TIMED(PMPI_Bcast(b, n, t, root, c));
}

int MPI_Barrier(MPI_Comm c)
{
  PPE_TIMED(PMPI_Barrier(c));
}

int MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c)
{
  PPE_TIMED(PMPI_Allgather(sb, sn, st, rb, rn, rt, c));
}

int MPI_Allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
  PPE_TIMED(PMPI_Allgatherv(sb, sn, st, rb, rn, rd, rt, c));
}

int MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c)
{
  PPE_TIMED(PMPI_Alltoall(sb, sn, st, rb, rn, rt, c));
}

int MPI_Alltoallv(const void *sb, const int sn[], const int sd[], MPI_Datatype st, void *rb, const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
  PPE_TIMED(PMPI_Alltoallv(sb, sn, sd, st, rb, rn, rd, rt, c));
}

int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s)
{
  PPE_TIMED(PMPI_Recv(b, n, t, src, tag, c, s));
}

int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dst, int stag, void *rb, int rn, MPI_Datatype rt, int src, int rtag, MPI_Comm c, MPI_Status *s)
{
  PPE_TIMED(PMPI_Sendrecv(sb, sn, st, dst, stag, rb, rn, rt, src, rtag, c, s));
}

int MPI_Wait(MPI_Request *r, MPI_Status *s)
{
  PPE_TIMED(PMPI_Wait(r, s));
}

int MPI_Waitall(int n, MPI_Request r[], MPI_Status s[])
{
  PPE_TIMED(PMPI_Waitall(n, r, s));
}

int MPI_Waitany(int n, MPI_Request r[], int *i, MPI_Status *s)
{
  PPE_TIMED(PMPI_Waitany(n, r, i, s));
}

int MPI_Waitsome(int n, MPI_Request r[], int *m, int idx[], MPI_Status s[])
{
  PPE_TIMED(PMPI_Waitsome(n, r, m, idx, s));
}
