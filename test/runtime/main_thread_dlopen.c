// Processor 0 is the process's main thread, whichever thread loaded the
// runtime.  A library built by parcc -shared that a helper thread loaded
// with dlopen took that helper for main: main's own call of the library's
// parfor stopped with "parfor ran on a thread that libparc did not create",
// and the helper's ran.  Now main runs constructs (and waits in parc_P)
// there, and the helper, a thread of the program's own, is refused, as
// docs/guide.md ("Threads of your own") says; an activity's exit() ends
// the program with its status after the loader has ended; and in a fork
// child, the forking thread is main if it was main in the parent.
//
//   %t LIB main|wait|helper|exit|forkmain|forkhelper
// UNSUPPORTED: asan, tsan
// UNSUPPORTED: cross
// (cross: builds a library with parcc, for this machine)
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %parcc -O2 -fPIC -shared %S/Inputs/main_thread_lib.pc -o %t.d/libmain.so
// RUN: %gcc -O1 %s -o %t -ldl -lpthread
// RUN: %run-1 %t %t.d/libmain.so main | %FileCheck %s
// RUN: %run-2 %t %t.d/libmain.so main | %FileCheck %s
// RUN: %run-4 %t %t.d/libmain.so main | %FileCheck %s
// RUN: %run-1 %t %t.d/libmain.so wait | %FileCheck %s --check-prefix=WAIT
// RUN: %run-2 %t %t.d/libmain.so wait | %FileCheck %s --check-prefix=WAIT
// RUN: sh -c 'env PARC_NPROCS=2 timeout -k 5 60 %t %t.d/libmain.so helper; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=HELPER
// RUN: sh -c 'env PARC_NPROCS=1 timeout -k 5 60 %t %t.d/libmain.so exit; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=EXIT
// RUN: sh -c 'env PARC_NPROCS=4 timeout -k 5 60 %t %t.d/libmain.so exit; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=EXIT
// RUN: %run-2 %t %t.d/libmain.so forkmain | %FileCheck %s --check-prefix=FORKMAIN
// RUN: %run-1 %t %t.d/libmain.so forkhelper 2>&1 | %FileCheck %s --check-prefix=FORKHELPER
// RUN: %run-2 %t %t.d/libmain.so forkhelper 2>&1 | %FileCheck %s --check-prefix=FORKHELPER
// CHECK: loaded
// CHECK-NEXT: main: 5050
// WAIT: main waited: 1
// HELPER: loaded
// HELPER-NEXT: main: 5050
// HELPER-NEXT: parc: error: {{.*}}main_thread_lib.pc:7:5: parfor ran on a thread that libparc did not create
// HELPER: status=1
// EXIT: loaded
// EXIT-NEXT: status=3
// FORKMAIN: main: 5050
// FORKMAIN-NEXT: child main: 210
// FORKMAIN-NEXT: child status 0
// FORKHELPER: main: 5050
// FORKHELPER-NEXT: child of the helper
// FORKHELPER-NEXT: parc: error: {{.*}}main_thread_lib.pc:7:5: parfor ran on a thread that libparc did not create
// FORKHELPER-NEXT: child status 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *lib;
static long (*lib_sum)(int);
static void (*lib_exit)(int);
static int (*lib_wait)(void);

static void *loader(void *arg) {
    (void)arg;
    void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        printf("dlopen: %s\n", dlerror());
        return NULL;
    }
    *(void **)&lib_sum = dlsym(h, "lib_sum");
    *(void **)&lib_exit = dlsym(h, "lib_exit");
    *(void **)&lib_wait = dlsym(h, "lib_wait");
    printf("loaded\n");
    fflush(stdout);
    return NULL;
}

static void *helper_sum(void *arg) {
    (void)arg;
    printf("helper: %ld\n", lib_sum(100));
    return NULL;
}

/* fork in a thread of the program's own; the child calls the library */
static void *helper_fork(void *arg) {
    (void)arg;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("child of the helper\n");
        fflush(stdout);
        printf("%ld\n", lib_sum(20));
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    return NULL;
}

static void on_thread(void *(*fn)(void *)) {
    pthread_t t;
    pthread_create(&t, NULL, fn, NULL);
    pthread_join(t, NULL);
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    lib = argv[1];
    const char *what = argv[2];
    on_thread(loader);
    if (!lib_sum)
        return 1;
    if (!strcmp(what, "exit")) {
        lib_exit(3);
        printf("not reached\n");
        return 0;
    }
    if (!strcmp(what, "wait")) {
        printf("main waited: %d\n", lib_wait());
        return 0;
    }
    printf("main: %ld\n", lib_sum(100));
    fflush(stdout);
    if (!strcmp(what, "helper"))
        on_thread(helper_sum);
    else if (!strcmp(what, "forkhelper"))
        on_thread(helper_fork);
    else if (!strcmp(what, "forkmain")) {
        pid_t pid = fork();
        if (pid == 0) {
            printf("child main: %ld\n", lib_sum(20));
            return 0;
        }
        int st;
        waitpid(pid, &st, 0);
        printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    }
    return 0;
}
