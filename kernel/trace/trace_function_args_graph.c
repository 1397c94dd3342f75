// SPDX-License-Identifier: GPL-2.0
/*
 * funcgraph-args: the function_graph tracer's entries with the arguments
 * of each call, as mainline Linux prints them:
 *
 *   vfs_read(file=0xff1100000398e900, buf=0x7ffd7c5e0e48, count=832,
 *            pos=0xffa00000002abf08) {
 *
 * An instance with the option on registers its graph ops with
 * FTRACE_OPS_FL_ARGS_ONLY, which fgraph passes on to the ftrace_ops that
 * it shares between all graph users: the ftrace core then builds the BTF
 * model of each function that it enables (ftrace_args.c).  The arch's
 * graph entry publishes the call's ftrace_regs in a per-CPU pointer while
 * the entry handlers run (include/linux/ftrace_args.h), and the handler
 * stores the argument words after the funcgraph_entry record, whose
 * format ends with a dynamic array for them.  The output
 * (trace_functions_graph.c) prints them through the function's model,
 * with the printer of the function_args tracer.
 */
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>

#include "ftrace_direct_batch_internal.h"
#include "trace.h"
#include "trace_function_args.h"

DEFINE_STATIC_KEY_FALSE(ftrace_graph_args_key);
DEFINE_PER_CPU(struct ftrace_graph_args_pub, ftrace_graph_args_pub);

/* Build the model of each function that some ops enables already */
static int fgraph_args_prepare_rec(struct dyn_ftrace *rec,
				   unsigned long index, void *data)
{
	if (ftrace_rec_count(rec))
		ftrace_args_prepare(rec->ip);
	return 0;
}

/*
 * Build the models of the functions that the instance will trace.  The
 * ftrace core builds those of the functions that fgraph's shared ops
 * enables once it is argument-aware, but not of those that another graph
 * user had enabled already: the functions that the instance's filter
 * names, or with no filter, every function enabled now.  The graph ops
 * shares the filter of tr->ops, whose lock is set up only once its filter
 * files were opened or it was registered: until then it has no filter.
 */
static void fgraph_args_prepare_filter(struct trace_array *tr)
{
	struct ftrace_ops *ops = tr->ops;
	struct ftrace_func_entry *entry;
	struct ftrace_hash *hash;
	bool all = true;
	int i;

	/* Set by ftrace_ops_init() after the lock and hashes, or never */
	if (smp_load_acquire(&ops->flags) & FTRACE_OPS_FL_INITIALIZED) {
		mutex_lock(&ops->func_hash->regex_lock);
		hash = ops->func_hash->filter_hash;
		if (!ftrace_hash_empty(hash)) {
			all = false;
			for (i = 0; i < (1 << hash->size_bits); i++)
				hlist_for_each_entry(entry, &hash->buckets[i], hlist)
					ftrace_args_prepare(entry->ip);
		}
		mutex_unlock(&ops->func_hash->regex_lock);
	}
	/* The walk takes ftrace_lock, which the batch interface exports */
	if (IS_ENABLED(CONFIG_FTRACE_DIRECT_BATCH) && all)
		ftrace_direct_batch_walk(fgraph_args_prepare_rec, NULL);
}

/**
 * fgraph_args_start - let an instance's function_graph record arguments
 * @tr: the instance, its graph ops not registered yet
 * @on: the funcgraph-args option
 *
 * Context: process context, under trace_types_lock.
 */
void fgraph_args_start(struct trace_array *tr, bool on)
{
	if (!on || fgraph_args_wanted(tr->gops))
		return;
	fgraph_args_prepare_filter(tr);
	tr->gops->ops.flags |= FTRACE_OPS_FL_ARGS_ONLY;
	static_branch_inc(&ftrace_graph_args_key);
}

/**
 * fgraph_args_stop - undo fgraph_args_start()
 * @tr: the instance, its graph ops unregistered
 */
void fgraph_args_stop(struct trace_array *tr)
{
	if (!fgraph_args_wanted(tr->gops))
		return;
	tr->gops->ops.flags &= ~FTRACE_OPS_FL_ARGS_ONLY;
	static_branch_dec(&ftrace_graph_args_key);
}

/**
 * fgraph_args_entry - write a funcgraph_entry record with the arguments
 * @tr: the instance
 * @trace: the entry
 * @trace_ctx: from tracing_gen_ctx_flags()
 *
 * Called by trace_graph_entry() with interrupts disabled.  A call whose
 * registers were not published for its ip (the graph entry came another
 * way), whose function has no usable model, or whose stack arguments lie
 * past the end of the stack gets the plain record.
 *
 * Return: 1 when the record was written, 0 when the buffer had no room.
 */
int fgraph_args_entry(struct trace_array *tr, struct ftrace_graph_ent *trace,
		      unsigned int trace_ctx)
{
	struct ftrace_graph_args_pub *pub = this_cpu_ptr(&ftrace_graph_args_pub);
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	const struct ftrace_func_model *model = NULL;
	unsigned long words[FTRACE_ARGS_WORDS_MAX];
	struct ftrace_graph_ent_entry *entry;
	struct ring_buffer_event *event;
	struct ftrace_regs *fregs = NULL;
	unsigned int nr = 0;

	if (pub->ip == trace->func)
		fregs = pub->fregs;
	/* The models are freed after RCU-tasks-rude and RCU grace periods */
	if (fregs)
		model = ftrace_args_model(trace->func);
	if (model && !model->flags && model->nr_words &&
	    ftrace_args_read(model, fregs, words) >= model->nr_stack)
		nr = model->nr_words;

	event = trace_buffer_lock_reserve(buffer, TRACE_GRAPH_ENT,
					  sizeof(*entry) + nr * sizeof(long),
					  trace_ctx);
	if (!event)
		return 0;
	entry = ring_buffer_event_data(event);
	entry->graph_ent = *trace;
	memcpy(entry->args, words, nr * sizeof(long));
	trace_buffer_unlock_commit_nostack(buffer, event);

	return 1;
}
