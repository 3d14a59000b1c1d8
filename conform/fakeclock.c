/*
 * LeaseLab conformance suite: a wall clock the test drives.
 *
 * Loaded into redis-server with LD_PRELOAD. Redis 7.0 reads the wall clock for key expiry
 * through ustime()/mstime() (gettimeofday) and elsewhere through clock_gettime(CLOCK_REALTIME)
 * and time(); every one of them here returns the time written in the file named by
 * LEASELAB_FAKECLOCK_FILE: one little-endian int64, microseconds since the Unix epoch, which the
 * test rewrites before each request (the file is mapped shared, so a write is seen at once).
 * Monotonic clocks (event loop timers, latency) stay real. Without the variable, or when the file
 * cannot be mapped, every call goes to the real function.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int64_t *fake_us;
static int ready;

/* The mapped time, or NULL when there is none. */
static volatile int64_t *fake(void) {
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        volatile int64_t *mapped = NULL;
        const char *path = getenv("LEASELAB_FAKECLOCK_FILE");
        if (path != NULL) {
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                void *m = mmap(NULL, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
                close(fd);
                if (m != MAP_FAILED) {
                    mapped = (volatile int64_t *)m;
                }
            }
        }
        fake_us = mapped;
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    return fake_us;
}

static int64_t now_us(volatile int64_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    volatile int64_t *p = fake();
    if (p != NULL && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
        int64_t us = now_us(p);
        ts->tv_sec = (time_t)(us / 1000000);
        ts->tv_nsec = (long)(us % 1000000) * 1000;
        return 0;
    }
    static int (*real)(clockid_t, struct timespec *);
    if (real == NULL) {
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    }
    return real(id, ts);
}

int gettimeofday(struct timeval *tv, void *tz) {
    volatile int64_t *p = fake();
    if (p != NULL) {
        int64_t us = now_us(p);
        tv->tv_sec = (time_t)(us / 1000000);
        tv->tv_usec = (suseconds_t)(us % 1000000);
        return 0;
    }
    static int (*real)(struct timeval *, void *);
    if (real == NULL) {
        real = (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
    }
    return real(tv, tz);
}

time_t time(time_t *out) {
    volatile int64_t *p = fake();
    if (p != NULL) {
        time_t s = (time_t)(now_us(p) / 1000000);
        if (out != NULL) {
            *out = s;
        }
        return s;
    }
    static time_t (*real)(time_t *);
    if (real == NULL) {
        real = (time_t (*)(time_t *))dlsym(RTLD_NEXT, "time");
    }
    return real(out);
}
