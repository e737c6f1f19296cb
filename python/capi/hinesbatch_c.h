/* A C interface to the batched solvers, for callers that cannot use the pybind11 module:
 * another Python (ctypes: python/hinesbatch/capi.py), Julia, Fortran. Arrays are pointers
 * into the memory of the library's default execution space: device memory on a CUDA build
 * (CuPy, PyTorch and JAX arrays solved in place), host memory otherwise. Each call fences
 * the device before and after, so arrays written on another stream are complete.
 *
 * Return value: 0 success; 1 a system could not be solved (*system, *node set; -1 when
 * unknown); 2 bad input; 3 any other failure. message (may be null) receives the reason.
 * Layout: 0 flat, arrays (N, n) in C order; 1 interleaved, arrays (n, N).
 * What is written: rhs (d for Thomas) receives the solution; u, l, d (a, b, c) are left as
 * they were unless overwrite is non-zero (then d, or c, is the solver's scratch).
 */
#ifndef HINESBATCH_C_H
#define HINESBATCH_C_H

#ifdef __cplusplus
extern "C" {
#endif

/* Kokkos started with its defaults (idempotent); 0 on success. */
int hb_initialize(char* message, int message_size);
/* Kokkos finalised (only if hb_initialize started it). */
void hb_finalize(void);
/* The execution space's name ("Cuda", "OpenMP"); 1 if host memory is the solvers' memory. */
const char* hb_backend(void);
int hb_memory_is_host(void);
const char* hb_version(void);

/* parent: host array of n ints (Hines order). */
int hb_solve_hines_f64(const int* parent, int n, int N, int layout, const double* u,
                       const double* l, double* d, double* rhs, int overwrite_d,
                       long long* system, long long* node, char* message, int message_size);
int hb_solve_hines_f32(const int* parent, int n, int N, int layout, const float* u,
                       const float* l, float* d, float* rhs, int overwrite_d, long long* system,
                       long long* node, char* message, int message_size);
/* N systems of m rows: a x[i-1] + b x[i] + c x[i+1] = d; d <- x. */
int hb_thomas_batch_f64(int N, int m, int layout, const double* a, const double* b, double* c,
                        double* d, int overwrite_c, long long* system, long long* node,
                        char* message, int message_size);
int hb_thomas_batch_f32(int N, int m, int layout, const float* a, const float* b, float* c,
                        float* d, int overwrite_c, long long* system, long long* node,
                        char* message, int message_size);

/* Diagnostics: the data pointers the last solve of this thread ran on (u, l, d, rhs or
 * a, b, c, d): equal to the caller's when solved in place. */
void hb_last_pointers(void* out[4]);

#ifdef __cplusplus
}
#endif
#endif
