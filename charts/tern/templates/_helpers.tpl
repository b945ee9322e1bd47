{{/* Names and labels shared by every object of the release. */}}
{{- define "tern.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "tern.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The server pods only: the migration Job's pod must not receive Service traffic. */}}
{{- define "tern.serverSelectorLabels" -}}
{{ include "tern.selectorLabels" . }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "tern.labels" -}}
{{ include "tern.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "tern.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* The migration Job runs only against a database server: SQLite lives on the pod's own volume. */}}
{{- define "tern.migrationJob" -}}
{{- if and .Values.migrations.job (ne .Values.database.type "sqlite") -}}true{{- end -}}
{{- end -}}

{{/* The DATA_DIR claim: always for local files or SQLite, optional with S3 + a database server. */}}
{{- define "tern.persistent" -}}
{{- if or (eq .Values.storage.type "local") (eq .Values.database.type "sqlite") .Values.persistence.enabled -}}true{{- end -}}
{{- end -}}

{{- define "tern.claimName" -}}
{{- .Values.persistence.existingClaim | default (printf "%s-data" (include "tern.fullname" .)) -}}
{{- end -}}

{{/*
The Secret and ConfigMap must exist before the pre-install migration Job, so they are
hooks themselves then (recreated on each upgrade; kept on uninstall, which keeps APP_KEY).
*/}}
{{- define "tern.configHook" -}}
{{- if include "tern.migrationJob" . -}}
annotations:
  helm.sh/hook: pre-install,pre-upgrade
  helm.sh/hook-weight: "-10"
  helm.sh/hook-delete-policy: before-hook-creation
{{- end }}
{{- end -}}

{{/* Environment of every Tern container: the ConfigMap, then secrets by key. */}}
{{- define "tern.env" -}}
envFrom:
  - configMapRef:
      name: {{ include "tern.fullname" . }}
env:
  - name: APP_KEY
    valueFrom:
      secretKeyRef:
        name: {{ .Values.appKey.existingSecret | default (include "tern.fullname" .) }}
        key: {{ if .Values.appKey.existingSecret }}{{ .Values.appKey.existingSecretKey }}{{ else }}APP_KEY{{ end }}
  {{- if ne .Values.database.type "sqlite" }}
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: {{ .Values.database.existingSecret | default (include "tern.fullname" .) }}
        key: {{ if .Values.database.existingSecret }}{{ .Values.database.existingSecretKey }}{{ else }}DB_PASSWORD{{ end }}
  {{- end }}
  {{- if or .Values.redis.url .Values.redis.existingSecret }}
  - name: REDIS_URL
    valueFrom:
      secretKeyRef:
        name: {{ .Values.redis.existingSecret | default (include "tern.fullname" .) }}
        key: {{ if .Values.redis.existingSecret }}{{ .Values.redis.existingSecretKey }}{{ else }}REDIS_URL{{ end }}
  {{- end }}
  {{- if .Values.metrics.token }}
  - name: METRICS_TOKEN
    valueFrom:
      secretKeyRef:
        name: {{ include "tern.fullname" . }}
        key: METRICS_TOKEN
  {{- end }}
  {{- with .Values.extraEnv }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}
