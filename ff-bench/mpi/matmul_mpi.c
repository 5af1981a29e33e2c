/*
 * The OpenMPI baseline of the DF-Threads paper's blocked matrix product, C = A x B, as an MPI programmer
 * writes it: rank 0 holds A, B and C; B is broadcast whole, A and C are split into contiguous ranges of
 * block rows, one range per rank (static distribution, the first n_blocks % P ranks one block row more).
 *
 *   matmul_mpi N B [SEED]      N the order, B the block size (dividing N), SEED default 1
 *
 * The product is FastFlow-J's `matmul` (ff-examples, BlockedMatrix) bit for bit: the same inputs (Java's
 * SplittableRandom reproduced below), the same blocked layout and the same kernel, each block of C summed
 * over k in ascending order. Build with -O2 -ffp-contract=off: a fused multiply-add rounds once where Java
 * rounds twice, and -ffast-math would reorder the sums, so either would change the digest.
 *
 * Rank 0 prints `time:` (the product including moving A, B and C between the ranks, since FastFlow-J's time
 * includes shipping the blocks; not generating the inputs, which FastFlow-J leaves out too), `digest:` (the
 * FNV-1a hash of C's bits that BlockedMatrix.digest() computes) and one `cpu:` line per rank (user and
 * system time of that process over the same span).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* java.util.SplittableRandom: SplitMix64 with the constructor's fixed gamma. */
typedef struct {
    uint64_t seed;
} splittable_random;

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ULL

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t next_long(splittable_random *r) {
    r->seed += GOLDEN_GAMMA;
    return mix64(r->seed);
}

static double next_double(splittable_random *r) {
    return (double)(next_long(r) >> 11) * 0x1.0p-53;
}

/*
 * A matrix of order n in blocks of bs x bs, block (I, J) at ((I * nb) + J) * bs * bs, each row-major: the
 * order BlockedMatrix fills, hashes and multiplies in, and one block row is contiguous, so a range of block
 * rows is one buffer for MPI.
 */
static void fill_random(double *m, size_t values, int64_t seed) {
    splittable_random r = {(uint64_t)seed};
    for (size_t e = 0; e < values; e++) {
        m[e] = next_double(&r) - 0.5;
    }
}

/* c += a * b on bs x bs row-major blocks, with BlockedMatrix.gemm's loop order and roundings. */
static void gemm(const double *a, const double *b, double *c, int bs) {
    for (int i = 0; i < bs; i++) {
        for (int k = 0; k < bs; k++) {
            double aik = a[i * bs + k];
            double *c_row = c + (size_t)i * bs;
            const double *b_row = b + (size_t)k * bs;
            for (int j = 0; j < bs; j++) {
                c_row[j] += aik * b_row[j];
            }
        }
    }
}

static uint64_t digest(const double *m, size_t values) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t e = 0; e < values; e++) {
        uint64_t bits;
        memcpy(&bits, &m[e], sizeof bits);
        h ^= bits;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static int parse_int(const char *s, long *out) {
    char *end;
    *out = strtol(s, &end, 10);
    return *s != '\0' && *end == '\0';
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);

    long n, bs, seed = 1;
    if (argc < 3 || argc > 4 || !parse_int(argv[1], &n) || !parse_int(argv[2], &bs)
        || (argc == 4 && !parse_int(argv[3], &seed)) || n < 1 || n > 8192 || bs < 1 || n % bs != 0) {
        if (rank == 0) {
            fprintf(stderr, "usage: matmul_mpi N B [SEED]  (1 <= N <= 8192, B dividing N)\n");
        }
        MPI_Finalize();
        return 2;
    }
    int nb = (int)(n / bs);
    size_t block_values = (size_t)bs * bs;
    size_t row_values = (size_t)nb * block_values; /* one block row */
    size_t all_values = (size_t)nb * row_values;

    /* Block rows [first[r], first[r] + rows[r]) are rank r's; counts and offsets in doubles for MPI. */
    int *counts = malloc(sizeof(int) * ranks);
    int *offsets = malloc(sizeof(int) * ranks);
    int first = 0;
    for (int r = 0; r < ranks; r++) {
        int rows = nb / ranks + (r < nb % ranks ? 1 : 0);
        counts[r] = (int)(rows * row_values);
        offsets[r] = (int)(first * row_values);
        first += rows;
    }
    int my_rows = counts[rank] / (int)row_values;

    double *a = NULL, *c = NULL;
    double *b = malloc(sizeof(double) * all_values);
    if (rank == 0) {
        a = malloc(sizeof(double) * all_values);
        c = malloc(sizeof(double) * all_values);
        fill_random(a, all_values, seed);
        fill_random(b, all_values, seed + 1);
    }
    double *my_a = malloc(sizeof(double) * (my_rows > 0 ? counts[rank] : 1));
    double *my_c = calloc(my_rows > 0 ? counts[rank] : 1, sizeof(double));
    if (b == NULL || my_a == NULL || my_c == NULL || (rank == 0 && (a == NULL || c == NULL))) {
        fprintf(stderr, "matmul_mpi: rank %d: out of memory for n=%ld\n", rank, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* Every rank starts the clock together; the TCP connections MPI opens lazily fall inside the span. */
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    double cpu_start = cpu_seconds();

    MPI_Bcast(b, (int)all_values, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatterv(a, counts, offsets, MPI_DOUBLE, my_a, counts[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < my_rows; i++) {
        for (int j = 0; j < nb; j++) {
            double *cij = my_c + i * row_values + j * block_values;
            for (int k = 0; k < nb; k++) {
                gemm(my_a + i * row_values + k * block_values, b + k * row_values + j * block_values, cij, (int)bs);
            }
        }
    }
    MPI_Gatherv(my_c, counts[rank], MPI_DOUBLE, c, counts, offsets, MPI_DOUBLE, 0, MPI_COMM_WORLD);

    double seconds = MPI_Wtime() - start;
    double cpu = cpu_seconds() - cpu_start;
    double *cpus = rank == 0 ? malloc(sizeof(double) * ranks) : NULL;
    MPI_Gather(&cpu, 1, MPI_DOUBLE, cpus, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("time: %.6f s for n=%ld block %ld (%d ranks)\n", seconds, n, bs, ranks);
        printf("digest: %016llx\n", (unsigned long long)digest(c, all_values));
        for (int r = 0; r < ranks; r++) {
            printf("cpu: %.3f s in this process (rank %d)\n", cpus[r], r);
        }
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
