package com.telemed.common.outbox;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** Test-only state change written in the same transaction as an event (and the persistence unit's one entity). */
@Entity
@Table(name = "probe_note")
public class ProbeNote {

    @Id
    public UUID id;

    public String text;

    public static ProbeNote of(String text) {
        ProbeNote note = new ProbeNote();
        note.id = UUID.randomUUID();
        note.text = text;
        return note;
    }
}
