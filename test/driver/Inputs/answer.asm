/* Data only, so that any GNU assembler takes it; #define needs cpp. */
#define VALUE 42
	.data
	.globl answer
answer:
	.long VALUE
	.section .note.GNU-stack,"",%progbits
