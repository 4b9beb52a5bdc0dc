package com.telemed.gateway.audit;

import com.telemed.common.id.Ids;
import com.telemed.gateway.identity.Account;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The names of the accounts audit entries name, deleted accounts included (an entry outlives its account). */
@ApplicationScoped
public class AccountNames {

    /** Account id (as the entries write it) to name; an id that names no account is left out. */
    @Transactional
    public Map<String, String> of(Collection<String> accountIds) {
        List<UUID> ids = accountIds.stream().map(Ids::uuid).flatMap(Optional::stream).distinct().toList();
        Map<String, String> names = new HashMap<>();
        if (!ids.isEmpty()) {
            Account.<Account>list("id in ?1", ids).forEach(account -> names.put(account.id.toString(), account.name));
        }
        return names;
    }
}
