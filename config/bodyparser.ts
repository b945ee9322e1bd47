import { defineConfig } from '@adonisjs/core/bodyparser'

/**
 * JSON bodies are small; chunk uploads (application/octet-stream) are streamed
 * by their own route and never parsed here.
 */
const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: {
    convertEmptyStringsToNull: false,
    types: ['application/x-www-form-urlencoded'],
    limit: '1mb',
  },
  json: {
    convertEmptyStringsToNull: false,
    types: ['application/json', 'application/json-patch+json', 'application/vnd.api+json'],
    limit: '1mb',
  },
  raw: {
    types: ['text/plain'],
    limit: '1mb',
  },
  multipart: {
    autoProcess: true,
    convertEmptyStringsToNull: false,
    // The logo upload is read by its controller, after the admin check, with its own size limit.
    processManually: ['/api/configs/admin/logo'],
    limit: '20mb',
    types: ['multipart/form-data'],
  },
})

export default bodyParserConfig
