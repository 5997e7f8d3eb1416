/**
 * The node API example: {@link io.spectrum.examples.node.NodeBasics} declares a vertex on an
 * in-process node, subscribes, writes, suspends and resumes (docs/node.md). See examples/README.md.
 */
package io.spectrum.examples.node;
