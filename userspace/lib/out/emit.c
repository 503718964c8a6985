// SPDX-License-Identifier: GPL-2.0
#include "emit.h"

void kp_emit_lost(struct kp_emit *em, unsigned int cpu, uint64_t lost)
{
	if (!lost)
		return;
	if (em->json)
		kp_format_lost_json(em->out, cpu, lost);
	else
		kp_format_lost(em->out, cpu, lost);
}

void kp_emit_record(struct kp_emit *em, const struct kpmod_record *rec,
		    unsigned int cpu, uint64_t lost)
{
	const struct kp_probe_desc *p;
	int ret;

	kp_emit_lost(em, cpu, lost);
	p = kp_probe_find(em->probes, em->nprobes, rec->probe_id);
	if (rec->type == KPMOD_REC_STACK) {
		ret = em->json ? kp_format_stack_json(em->out, rec, p, em->ks) :
				 kp_format_stack_text(em->out, rec, em->ks);
		if (ret)
			em->bad++;
		else
			em->stacks++;
		return;
	}
	ret = em->json ? kp_format_json(em->out, rec, p, em->ks) :
			 kp_format_text(em->out, rec, p, em->ks);
	if (ret)
		em->bad++;
	else
		em->events++;
}
