{{/*
Names, labels and the per-service settings every template shares. Templates range over
`telemed.serviceNames` and read each service through `telemed.service` (its settings merged over
`defaults`) and `telemed.facts` (what the code fixes: module, who it calls, whether it uses Kafka).
*/}}

{{- define "telemed.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "telemed.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 36 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 36 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The keys of .Values.services (the schema admits exactly the eight), sorted. */}}
{{- define "telemed.serviceNames" -}}
{{- toJson (keys .Values.services | sortAlpha) -}}
{{- end -}}

{{/*
What the code fixes per service, not a setting: its module (resource and image name), the services
it calls (its SERVICE_URLS_<NAME> settings; the NetworkPolicies admit exactly these callers),
whether it has a database (all but web-service: its datasource settings, database Secret and
PostgreSQL egress), whether it has a Kafka client, whether it connects outside the platform
(webhook-service to partners' webhook URLs, requests-service to the pharmacies' HTTP endpoints; the
NetworkPolicies' egress.outside). Every service serves /q/health and /q/metrics on its management
port, none on http.
*/}}
{{- define "telemed.allFacts" -}}
gateway:
  module: gateway
  calls: [requests, members, catalogue, messaging, billing, webhook, web]
  database: true
  kafka: false
  outside: false
requests:
  module: requests-service
  calls: [members, catalogue, messaging]
  database: true
  kafka: true
  outside: true
members:
  module: members-service
  calls: [requests]
  database: true
  kafka: true
  outside: false
catalogue:
  module: catalogue-service
  calls: []
  database: true
  kafka: true
  outside: false
messaging:
  module: messaging-service
  calls: [members, requests]
  database: true
  kafka: true
  outside: false
billing:
  module: billing-service
  calls: [members, requests]
  database: true
  kafka: true
  outside: false
webhook:
  module: webhook-service
  calls: []
  database: true
  kafka: true
  outside: true
web:
  module: web-service
  calls: [requests, gateway]
  database: false
  kafka: false
  outside: false
{{- end -}}

{{/* (dict "root" $ "name" "requests") -> the facts above of one service, as JSON. */}}
{{- define "telemed.facts" -}}
{{- $all := include "telemed.allFacts" .root | fromYaml -}}
{{- toJson (get $all .name) -}}
{{- end -}}

{{/* (dict "root" $ "name" "members") -> the services that call it, gateway first, as JSON. */}}
{{- define "telemed.callers" -}}
{{- $all := include "telemed.allFacts" .root | fromYaml -}}
{{- $callers := list -}}
{{- range $caller := include "telemed.serviceNames" .root | fromJsonArray -}}
{{- if has $.name (get (get $all $caller) "calls") -}}
{{- $callers = append $callers $caller -}}
{{- end -}}
{{- end -}}
{{- toJson $callers -}}
{{- end -}}

{{/*
(dict "base" map "override" map) -> base with override merged in, as JSON: maps key by key,
anything else replaced, null keeps the base. Unlike sprig's mergeOverwrite, false and 0 override.
*/}}
{{- define "telemed.merge" -}}
{{- $out := deepCopy .base -}}
{{- range $key, $value := .override -}}
{{- $current := get $out $key -}}
{{- if and (kindIs "map" $value) (kindIs "map" $current) -}}
{{- $_ := set $out $key (include "telemed.merge" (dict "base" $current "override" $value) | fromJson) -}}
{{- else if not (kindIs "invalid" $value) -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/* (dict "root" $ "name" "requests") -> defaults merged with services.<name>, as JSON. */}}
{{- define "telemed.service" -}}
{{- $own := get .root.Values.services .name -}}
{{- include "telemed.merge" (dict "base" .root.Values.defaults "override" $own) -}}
{{- end -}}

{{/* (dict "root" $ "name" "requests") -> the name of its Deployment, Service, ConfigMap ... */}}
{{- define "telemed.componentName" -}}
{{- $facts := include "telemed.facts" . | fromJson -}}
{{- printf "%s-%s" (include "telemed.fullname" .root) $facts.module | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "telemed.commonLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: telemed
{{- end -}}

{{- define "telemed.labels" -}}
{{ include "telemed.commonLabels" . }}
app.kubernetes.io/name: {{ include "telemed.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* (dict "root" $ "name" "requests") -> the labels that select its pods. */}}
{{- define "telemed.selectorLabels" -}}
{{- $facts := include "telemed.facts" . | fromJson -}}
app.kubernetes.io/name: {{ include "telemed.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ $facts.module }}
{{- end -}}

{{- define "telemed.componentLabels" -}}
{{ include "telemed.commonLabels" .root }}
{{ include "telemed.selectorLabels" . }}
{{- end -}}

{{/* (dict "root" $ "name" "requests") -> registry/repository:tag of its image. */}}
{{- define "telemed.image" -}}
{{- $svc := include "telemed.service" . | fromJson -}}
{{- $g := .root.Values.global.image -}}
{{- $repository := required (printf "services.%s.image.repository is required" .name) $svc.image.repository -}}
{{- $tag := $svc.image.tag | default $g.tag | default .root.Chart.AppVersion -}}
{{- if $g.registry -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $g.registry) $repository $tag -}}
{{- else -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}
{{- end -}}

{{/* The URL a service reaches another by, inside the namespace. */}}
{{- define "telemed.serviceUrl" -}}
{{- $port := .root.Values.global.servicePort -}}
{{- if eq .name "gateway" -}}{{- $port = .root.Values.services.gateway.service.port -}}{{- end -}}
{{- printf "http://%s:%v" (include "telemed.componentName" .) $port -}}
{{- end -}}

{{/* Secret names: the existing one when named, else the one the chart creates. */}}
{{- define "telemed.trustKeySecret" -}}
{{- .Values.secrets.trustKey.existingSecret | default (printf "%s-trust-key" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.opsApiKeySecret" -}}
{{- .Values.secrets.opsApiKey.existingSecret | default (printf "%s-ops-api-key" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.webhookKeysSecret" -}}
{{- .Values.secrets.webhookSecretKeys.existingSecret | default (printf "%s-webhook-secret-keys" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.attachmentLinkKeySecret" -}}
{{- .Values.secrets.attachmentLinkKey.existingSecret | default (printf "%s-attachment-link-key" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.consoleSessionKeySecret" -}}
{{- .Values.secrets.consoleSessionKey.existingSecret | default (printf "%s-console-session-key" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.consoleOidcClientSecret" -}}
{{- .Values.secrets.consoleOidcClient.existingSecret | default (printf "%s-console-oidc-client" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.kafkaSecret" -}}
{{- .Values.secrets.kafka.existingSecret | default (printf "%s-kafka" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.smtpSecret" -}}
{{- .Values.secrets.smtp.existingSecret | default (printf "%s-smtp" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.pharmaciesSecret" -}}
{{- .Values.secrets.pharmacies.existingSecret | default (printf "%s-pharmacies" (include "telemed.fullname" .)) -}}
{{- end -}}
{{- define "telemed.databaseSecret" -}}
{{- $db := get .root.Values.secrets.databases .name -}}
{{- $db.existingSecret | default (printf "%s-database" (include "telemed.componentName" .)) -}}
{{- end -}}

{{- define "telemed.kafkaSasl" -}}
{{- if hasPrefix "SASL_" .Values.kafka.securityProtocol -}}true{{- end -}}
{{- end -}}

{{/* "true" when a private CA for Kafka's TLS is given (kafka.tls); fails when both sources are. */}}
{{- define "telemed.kafkaCa" -}}
{{- $tls := .Values.kafka.tls -}}
{{- if and $tls.caSecret $tls.caConfigMap -}}
{{- fail "kafka.tls: set caSecret or caConfigMap, not both" -}}
{{- end -}}
{{- if or $tls.caSecret $tls.caConfigMap -}}true{{- end -}}
{{- end -}}

{{/* The JDBC URL of one service's database. */}}
{{- define "telemed.jdbcUrl" -}}
{{- $svc := include "telemed.service" . | fromJson -}}
{{- $facts := include "telemed.facts" . | fromJson -}}
{{- $pg := .root.Values.postgresql -}}
{{- $db := $svc.database -}}
{{- $host := $db.host | default $pg.host -}}
{{- $host = required (printf "postgresql.host (or services.%s.database.host) is required" .name) $host -}}
{{- $port := $db.port | default $pg.port -}}
{{- $params := dict "sslmode" ($db.sslmode | default $pg.sslmode) "ApplicationName" $facts.module -}}
{{- $params = mustMergeOverwrite $params (deepCopy ($pg.parameters | default dict)) (deepCopy ($db.parameters | default dict)) -}}
{{- $query := list -}}
{{- range $key := keys $params | sortAlpha -}}
{{- $query = append $query (printf "%s=%v" $key (get $params $key)) -}}
{{- end -}}
{{- printf "jdbc:postgresql://%s:%v/%s?%s" $host $port $db.name (join "&" $query) -}}
{{- end -}}

{{/*
(dict "root" $ "name" "requests") -> a digest of the chart-created secret values the service reads,
so that `helm upgrade` with a new credential rolls that service's pods (an existingSecret is not
seen: after changing one, `kubectl rollout restart`).
*/}}
{{- define "telemed.secretChecksum" -}}
{{- $s := .root.Values.secrets -}}
{{- $facts := include "telemed.facts" . | fromJson -}}
{{- $used := list $s.trustKey -}}
{{- if $facts.database -}}{{- $used = append $used (get $s.databases .name) -}}{{- end -}}
{{- if eq .name "gateway" -}}{{- $used = append $used $s.opsApiKey -}}{{- end -}}
{{- if eq .name "webhook" -}}{{- $used = append $used $s.webhookSecretKeys -}}{{- end -}}
{{- if eq .name "messaging" -}}{{- $used = append (append $used $s.smtp) $s.attachmentLinkKey -}}{{- end -}}
{{- if eq .name "requests" -}}{{- $used = append $used $s.pharmacies -}}{{- end -}}
{{- if eq .name "web" -}}{{- $used = append $used $s.consoleSessionKey -}}{{- end -}}
{{- if and (eq .name "web") .root.Values.identity.oidc.consoleClientId -}}{{- $used = append $used $s.consoleOidcClient -}}{{- end -}}
{{- if $facts.kafka -}}{{- $used = append $used $s.kafka -}}{{- end -}}
{{- toJson $used | sha256sum -}}
{{- end -}}

{{/* (dict "root" $ "name" "requests") -> the data of its ConfigMap: its non-secret environment. */}}
{{- define "telemed.configData" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $ctx := . -}}
{{- $svc := include "telemed.service" . | fromJson -}}
{{- $facts := include "telemed.facts" . | fromJson -}}
{{- $shutdown := $svc.shutdown -}}
{{- $publicUrl := required "global.publicUrl is required (the gateway's public base URL: attachment and booking links)" $root.Values.global.publicUrl | trimSuffix "/" -}}
QUARKUS_HTTP_PORT: {{ $root.Values.global.containerPort | quote }}
QUARKUS_MANAGEMENT_PORT: {{ $root.Values.global.managementPort | quote }}
QUARKUS_MANAGEMENT_HOST: "0.0.0.0"
{{- if $facts.database }}
QUARKUS_DATASOURCE_JDBC_URL: {{ include "telemed.jdbcUrl" $ctx | quote }}
{{- end }}
QUARKUS_SHUTDOWN_DELAY: {{ printf "%vs" $shutdown.delaySeconds | quote }}
QUARKUS_SHUTDOWN_TIMEOUT: {{ printf "%vs" $shutdown.timeoutSeconds | quote }}
QUARKUS_HTTP_BODY_UPLOADS_DIRECTORY: "/tmp/uploads"
SERVICE_ENVIRONMENT: {{ $root.Values.global.serviceEnvironment | quote }}
JAVA_TOOL_OPTIONS: {{ $svc.javaToolOptions | quote }}
MALLOC_ARENA_MAX: "2"
{{- with $root.Values.tracing.otlpEndpoint }}
QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT: {{ . | quote }}
{{- end }}
{{- range $called := $facts.calls }}
SERVICE_URLS_{{ upper $called }}: {{ include "telemed.serviceUrl" (dict "root" $root "name" $called) | quote }}
{{- end }}
{{- if $facts.kafka }}
KAFKA_BOOTSTRAP_SERVERS: {{ required "kafka.bootstrapServers is required" $root.Values.kafka.bootstrapServers | quote }}
KAFKA_SECURITY_PROTOCOL: {{ $root.Values.kafka.securityProtocol | quote }}
{{- if include "telemed.kafkaSasl" $root }}
KAFKA_SASL_MECHANISM: {{ required "kafka.sasl.mechanism is required with a SASL_* securityProtocol" $root.Values.kafka.sasl.mechanism | quote }}
{{- end }}
{{- if include "telemed.kafkaCa" $root }}
KAFKA_SSL_TRUSTSTORE_TYPE: "PEM"
KAFKA_SSL_TRUSTSTORE_LOCATION: {{ printf "/etc/telemed/kafka-ca/%s" $root.Values.kafka.tls.caKey | quote }}
{{- end }}
{{- end }}
{{- if eq $name "messaging" }}
ATTACHMENT_BASE_URL: {{ $publicUrl | quote }}
SMTP_HOST: {{ required "smtp.host is required (messaging-service refuses to start without it)" $root.Values.smtp.host | quote }}
SMTP_PORT: {{ $root.Values.smtp.port | quote }}
SMTP_FROM: {{ $root.Values.smtp.from | quote }}
SMTP_START_TLS: {{ $root.Values.smtp.startTls | quote }}
{{- end }}
{{- if eq $name "requests" }}
BOOKING_BASE_URL: {{ $publicUrl | quote }}
{{- end }}
{{- if and (eq $name "gateway") $root.Values.ingress.trustedProxies }}
GATEWAY_PROXY_FORWARDING: "true"
GATEWAY_TRUSTED_PROXIES: {{ join "," $root.Values.ingress.trustedProxies | quote }}
{{- end }}
{{- if eq $name "gateway" }}
{{- $identity := $root.Values.identity }}
{{- if not (kindIs "invalid" $identity.localAccounts) }}
PLATFORM_IDENTITY_LOCAL_ACCOUNTS: {{ $identity.localAccounts | toString | quote }}
{{- end }}
{{- with $identity.oidc.issuer }}
PLATFORM_IDENTITY_OIDC_ISSUER: {{ . | quote }}
PLATFORM_IDENTITY_OIDC_AUDIENCE: {{ required "identity.oidc.audience is required with identity.oidc.issuer (the gateway refuses to start in production without it: a token the provider issued to any of its clients would be taken)" $identity.oidc.audience | quote }}
{{- end }}
{{- with $identity.oidc.rolesClaim }}
PLATFORM_IDENTITY_OIDC_ROLES_CLAIM: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq $name "web" }}
{{- $oidc := $root.Values.identity.oidc }}
{{- with $oidc.consoleClientId }}
WEB_CONSOLE_OIDC_ISSUER: {{ required "identity.oidc.issuer is required with identity.oidc.consoleClientId (the console signs people in at the gateway's OpenID Connect provider)" $oidc.issuer | quote }}
WEB_CONSOLE_OIDC_CLIENT_ID: {{ . | quote }}
{{- end }}
{{- end }}
{{- range $key, $value := $svc.env }}
{{ $key }}: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/*
With global.serviceEnvironment production, people must have a way to sign in to /ops (issue #40): OpenID
Connect (identity.oidc.issuer) or local accounts (identity.localAccounts true), as the gateway refuses
to start otherwise (identity.IdentityProductionSettings).
*/}}
{{- define "telemed.productionIdentity" -}}
{{- $identity := .Values.identity -}}
{{- if and (eq .Values.global.serviceEnvironment "production") (not $identity.oidc.issuer) (ne (toString $identity.localAccounts) "true") -}}
{{- fail "identity: production needs a way for people to sign in to /ops: identity.oidc.issuer (OpenID Connect, with identity.oidc.audience) or identity.localAccounts true (the gateway refuses to start with neither)" -}}
{{- end -}}
{{- end -}}

{{/*
With global.serviceEnvironment production, every connection that carries patient data or credentials
is encrypted and its server verified (issue #38), or the chart refuses to render, naming each
setting: PostgreSQL's sslmode verify-full (or require / verify-ca with sslrootcert among the JDBC
parameters) for every service, Kafka over SSL or SASL_SSL, SMTP with STARTTLS REQUIRED. The
services refuse to start likewise (platform-commons' config.TransportSettings).
*/}}
{{- define "telemed.productionTransport" -}}
{{- $root := . -}}
{{- if eq $root.Values.global.serviceEnvironment "production" -}}
{{- $refusals := list -}}
{{- range $name := include "telemed.serviceNames" $root | fromJsonArray -}}
{{- $facts := include "telemed.facts" (dict "root" $root "name" $name) | fromJson -}}
{{- if $facts.database -}}
{{- $svc := include "telemed.service" (dict "root" $root "name" $name) | fromJson -}}
{{- $db := $svc.database | default dict -}}
{{- $sslmode := $db.sslmode | default $root.Values.postgresql.sslmode -}}
{{- $params := mustMergeOverwrite (dict) (deepCopy ($root.Values.postgresql.parameters | default dict)) (deepCopy ($db.parameters | default dict)) -}}
{{- $verified := or (eq $sslmode "verify-full") (and (has $sslmode (list "require" "verify-ca")) (hasKey $params "sslrootcert")) -}}
{{- if not $verified -}}
{{- $refusals = append $refusals (printf "services.%s: PostgreSQL sslmode %s (production needs verify-full, or require or verify-ca with sslrootcert)" $name $sslmode) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if not (has $root.Values.kafka.securityProtocol (list "SSL" "SASL_SSL")) -}}
{{- $refusals = append $refusals (printf "kafka.securityProtocol %s (production needs SSL or SASL_SSL)" $root.Values.kafka.securityProtocol) -}}
{{- end -}}
{{- if ne $root.Values.smtp.startTls "REQUIRED" -}}
{{- $refusals = append $refusals (printf "smtp.startTls %s (production needs REQUIRED)" $root.Values.smtp.startTls) -}}
{{- end -}}
{{- if $refusals -}}
{{- fail (printf "global.serviceEnvironment production refuses transport that is not encrypted and verified: %s" (join "; " $refusals)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
requests-service's HTTP pharmacies: those whose URL services.requests.env sets (PHARMACY_<NAME>_URL),
as a JSON list of {value (under secrets.pharmacies), key (in its Secret), variable (PHARMACY_<NAME>)}.
Each gets its signing secret, PHARMACY_<NAME>_SECRET, from secrets.pharmacies (issue #38). With
global.serviceEnvironment production every such URL is https or the chart refuses to render, as
requests-service refuses to start (fulfilment.FulfilmentProductionSettings).
*/}}
{{- define "telemed.pharmacies" -}}
{{- $svc := include "telemed.service" (dict "root" . "name" "requests") | fromJson -}}
{{- $env := $svc.env | default dict -}}
{{- $all := list
    (dict "value" "integrationA" "key" "integration-a" "variable" "PHARMACY_INTEGRATION_A")
    (dict "value" "integrationB" "key" "integration-b" "variable" "PHARMACY_INTEGRATION_B")
    (dict "value" "email" "key" "email" "variable" "PHARMACY_EMAIL") -}}
{{- $configured := list -}}
{{- $refusals := list -}}
{{- range $pharmacy := $all -}}
{{- $url := get $env (printf "%s_URL" $pharmacy.variable) | toString | trim -}}
{{- if $url -}}
{{- $configured = append $configured $pharmacy -}}
{{- if and (eq $.Values.global.serviceEnvironment "production") (not (hasPrefix "https://" (lower $url))) -}}
{{- $refusals = append $refusals (printf "services.requests.env.%s_URL" $pharmacy.variable) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $refusals -}}
{{- fail (printf "global.serviceEnvironment production refuses a pharmacy URL that is not https: %s" (join ", " $refusals)) -}}
{{- end -}}
{{- toJson $configured -}}
{{- end -}}
