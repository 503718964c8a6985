// SPDX-License-Identifier: GPL-2.0
#include "cli.h"

int main(int argc, char **argv)
{
	return kp_main(argc, argv);
}
