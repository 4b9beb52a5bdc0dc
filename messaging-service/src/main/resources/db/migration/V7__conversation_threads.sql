-- The console's list of threads (GET /ops/v1/conversations, conversation.Conversation#console): threads
-- with patient messages the prescriber has not read first, then the latest message first, the id
-- breaking ties; a page starts after its cursor, a row comparison on the same three keys. The threads
-- not changed since the first page was read are read in that order: every prescriber's (support,
-- administrators, the operator key) by the first index, a prescriber's own by the second.
create index conversations_console_idx
    on conversations ((unread_by_prescriber > 0) desc, last_message_at desc, id desc);
create index conversations_prescriber_console_idx
    on conversations (prescriber_id, (unread_by_prescriber > 0) desc, last_message_at desc, id desc);
-- The threads changed since the first page was read (a handful: those of the minutes between pages),
-- placed by their messages as they were then, found by their last change.
create index conversations_updated_idx on conversations (updated_at);
