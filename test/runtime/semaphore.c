// Semaphores: a bounded buffer between producers and consumers that must
// not deadlock at P = 1 (blocked activities free their processor), and a
// mutex built from a semaphore.
//
// PARC source:
//   parc_sem_t full, empty, mutex; int buf[4], head, tail; long got;
//   parfor int i; 0; 7; 1;
//     if (i < 4) for (int n = 0; n < 500; n++) {      // producers
//         parc_P(&empty); parc_P(&mutex); buf[tail++ % 4] = n + 1; parc_V(&mutex); parc_V(&full); }
//     else for (int n = 0; n < 500; n++) {            // consumers
//         parc_P(&full); parc_P(&mutex); got += buf[head++ % 4]; parc_V(&mutex); parc_V(&empty); }
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: got=501000 head=2000 tail=2000
// CHECK: chain=100
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_sem_t full, empty, mutex;
static int buf[4], head, tail;
static long got;

static parc_site s_pc = PARC_SITE_INIT("sem.pc", "main", 9, 3, PARC_KIND_PARFOR);
static parc_site s_chain = PARC_SITE_INIT("sem.pc", "main", 20, 3, PARC_KIND_PARFOR);

static void pc_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k < 4) {
      for (int n = 0; (parc_poll(), n < 500); n++) {
        parc_P(&empty);
        parc_P(&mutex);
        buf[tail++ % 4] = n + 1;
        parc_V(&mutex);
        parc_V(&full);
      }
    } else {
      for (int n = 0; (parc_poll(), n < 500); n++) {
        parc_P(&full);
        parc_P(&mutex);
        got += buf[head++ % 4];
        parc_V(&mutex);
        parc_V(&empty);
      }
    }
  }
}

// A chain run backwards: activity k waits for link 99-k, which activity
// k+1 signals, so at P = 1 activities 0..98 all block before 99 runs.
static parc_sem_t links[101];
static int chain;

static void chain_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_P(&links[99 - k]);
    chain++;
    parc_V(&links[100 - k]);
  }
}

int main(void) {
  parc_sem_init(&full, 0);
  parc_sem_init(&empty, 4);
  parc_sem_init(&mutex, 1);
  {
    parc_desc d;
    parc_spawn(&d, &s_pc, pc_body, NULL, 8);
  }
  printf("got=%ld head=%d tail=%d\n", got, head, tail);
  for (int i = 0; i <= 100; i++)
    parc_sem_init(&links[i], 0);
  parc_V(&links[0]);
  {
    parc_desc d;
    parc_spawn(&d, &s_chain, chain_body, NULL, 100);
  }
  parc_P(&links[100]);
  printf("chain=%d\n", chain);
  return 0;
}
