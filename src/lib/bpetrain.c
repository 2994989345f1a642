/* bpetrain.c - `pskd-tok --train` (placeholder until the trainer lands). */
#include "pskd.h"
#include "bpetrain.h"

int
pskd_tok_train_main(int argc, char **argv)
{
	(void)argc;
	pskd_setprogname(argv[0]);
	pskd_warnx("--train: not built yet");
	return PSKD_EXIT_DATA;
}
