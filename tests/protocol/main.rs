//! The `protocol` test program: the ways in: Hub sessions (scripted, garbage input, the protocol
//! document) and DXP (follower, initiator, matches) against the `tiao` binary. One program per area
//! of `tests/`, linked once; each module was a test file of its own. Helpers shared between areas
//! are in `tests/support/`.

#[path = "../support/dxp.rs"]
mod dxp_support;
#[path = "../support/hub.rs"]
mod hub_common;

mod dxp_follower;
mod dxp_initiator;
mod dxp_match;
mod hub_book;
mod hub_garbage;
mod hub_protocol_doc;
mod hub_search;
mod hub_session;
