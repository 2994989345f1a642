/* bpetrain.h - `pskd-tok --train`: learn a byte-level BPE vocabulary. */
#ifndef PSKD_BPETRAIN_H
#define PSKD_BPETRAIN_H

/* The whole of `pskd-tok --train ...`: parses argv itself; exit status. */
int	pskd_tok_train_main(int argc, char **argv);

#endif
