/**
 * The FWD side both cores share: {@link io.spectrum.node.fwd.FwdServer} over a core's
 * {@link io.spectrum.node.fwd.FwdStore}. It owns the attached links and the peers' shares and
 * extension announcements, the terminus (READ / WRITE / AWAIT on a vertex and its
 * {@code :subscribers}, {@code :children}, {@code :settings} fields), the composed READ, awaits,
 * routed deliveries and activity notices, the owner's request door, the remote client and the
 * {@code /$node/stats} renderer. It knows no core: NarrowNode and core-wide's WideNode each answer
 * its {@code FwdStore} from their own tables. Depends on the node API, pools and routing only.
 */
package io.spectrum.node.fwd;
