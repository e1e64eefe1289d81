/* Plain C, no construct: its loop polls all the same, and stops only there
 * when the parblock of spin_main.pc is killed (plain_link.test). */
extern long spin_started;
static volatile int never;

void spin_forever(void)
{
    __atomic_fetch_add(&spin_started, 1, __ATOMIC_SEQ_CST);
    while (!never)
        ;
}
