/* Plain C calling a library built by `parcc -shared`. */
#include <stdio.h>
int stop_spinner(void);
int main(void)
{
    printf("stop_spinner returned %d\n", stop_spinner());
    return 0;
}
