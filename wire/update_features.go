package wire

// UpdateFeaturesRequest changes finalized feature levels (API key 57, versions 0-2, all flexible).
// Source: UpdateFeaturesRequest.json; KIP-584, KIP-778.
type UpdateFeaturesRequest struct {
	// TimeoutMs is how long to wait in milliseconds before timing out the request. Kafka's default: 60000.
	TimeoutMs int32
	// FeatureUpdates holds the list of updates to finalized features.
	FeatureUpdates []UpdateFeaturesFeatureUpdateKey
	// ValidateOnly is used true if we should validate the request, but not perform the upgrade or downgrade. (v1+)
	ValidateOnly bool
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// UpdateFeaturesFeatureUpdateKey is the list of updates to finalized features.
type UpdateFeaturesFeatureUpdateKey struct {
	// Feature is the name of the finalized feature to be updated.
	Feature string
	// MaxVersionLevel is the new maximum version level for the finalized feature. A value >= 1 is valid. A value < 1, is special, and can be used to request the deletion of the finalized feature.
	MaxVersionLevel int16
	// AllowDowngrade is the DEPRECATED in version 1 (see DowngradeType). When set to true, the finalized feature version level is allowed to be downgraded/deleted. The downgrade request will fail if the new maximum version level is a value that's not lower than the existing maximum finalized version level. (v0-0)
	AllowDowngrade bool
	// UpgradeType is the determine which type of upgrade will be performed: 1 will perform an upgrade only (default), 2 is safe downgrades only (lossless), 3 is unsafe downgrades (lossy). (v1+) Kafka's default: 1 (what decoding sets where the version lacks the field).
	UpgradeType int8
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyUpdateFeatures.
func (*UpdateFeaturesRequest) Key() APIKey { return KeyUpdateFeatures }

// ResponseFor returns an empty *UpdateFeaturesResponse.
func (*UpdateFeaturesRequest) ResponseFor() Response { return &UpdateFeaturesResponse{} }

// AppendTo appends the request body for version v (header excluded).
func (m *UpdateFeaturesRequest) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.TimeoutMs)
	dst = AppendArray(dst, flex, m.FeatureUpdates, func(dst []byte, x *UpdateFeaturesFeatureUpdateKey) []byte { return x.appendTo(dst, v, flex) })
	if v >= 1 {
		dst = AppendBool(dst, m.ValidateOnly)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the request body for version v.
func (m *UpdateFeaturesRequest) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.TimeoutMs = r.Int32()
	m.FeatureUpdates = ReadArray(r, flex, 5, func(r *Reader, x *UpdateFeaturesFeatureUpdateKey) { x.readFrom(r, v, flex) })
	if v >= 1 {
		m.ValidateOnly = r.Bool()
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *UpdateFeaturesFeatureUpdateKey) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Feature, flex)
	dst = AppendInt16(dst, m.MaxVersionLevel)
	if v <= 0 {
		dst = AppendBool(dst, m.AllowDowngrade)
	}
	if v >= 1 {
		dst = AppendInt8(dst, m.UpgradeType)
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *UpdateFeaturesFeatureUpdateKey) readFrom(r *Reader, v int16, flex bool) {
	m.UpgradeType = 1
	m.Feature = r.String(flex)
	m.MaxVersionLevel = r.Int16()
	if v <= 0 {
		m.AllowDowngrade = r.Bool()
	}
	if v >= 1 {
		m.UpgradeType = r.Int8()
	}
	m.UnknownTags = readFlexTags(r, flex)
}

// UpdateFeaturesResponse answers a UpdateFeaturesRequest.
type UpdateFeaturesResponse struct {
	// ThrottleTimeMs is the duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
	ThrottleTimeMs int32
	// ErrorCode is the top-level error code, or `0` if there was no top-level error.
	ErrorCode int16
	// ErrorMessage is the top-level error message, or `null` if there was no top-level error. Nil is null.
	ErrorMessage *string
	// Results holds the results for each feature update. (v0-1)
	Results []UpdateFeaturesUpdatableFeatureResult
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// UpdateFeaturesUpdatableFeatureResult is the results for each feature update.
type UpdateFeaturesUpdatableFeatureResult struct {
	// Feature is the name of the finalized feature.
	Feature string
	// ErrorCode is the feature update error code or `0` if the feature update succeeded.
	ErrorCode int16
	// ErrorMessage is the feature update error, or `null` if the feature update succeeded. Nil is null.
	ErrorMessage *string
	// UnknownTags keeps unknown tagged fields (flexible versions).
	UnknownTags []TaggedField
}

// Key returns KeyUpdateFeatures.
func (*UpdateFeaturesResponse) Key() APIKey { return KeyUpdateFeatures }

// AppendTo appends the response body for version v (header excluded).
func (m *UpdateFeaturesResponse) AppendTo(dst []byte, v int16) []byte {
	const flex = true
	dst = AppendInt32(dst, m.ThrottleTimeMs)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	if v <= 1 {
		dst = AppendArray(dst, flex, m.Results, func(dst []byte, x *UpdateFeaturesUpdatableFeatureResult) []byte { return x.appendTo(dst, v, flex) })
	}
	return appendFlexTags(dst, flex, m.UnknownTags)
}

// DecodeFrom decodes the response body for version v.
func (m *UpdateFeaturesResponse) DecodeFrom(r *Reader, v int16) error {
	const flex = true
	m.ThrottleTimeMs = r.Int32()
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	if v <= 1 {
		m.Results = ReadArray(r, flex, 5, func(r *Reader, x *UpdateFeaturesUpdatableFeatureResult) { x.readFrom(r, v, flex) })
	}
	m.UnknownTags = readFlexTags(r, flex)
	return r.Err()
}

func (m *UpdateFeaturesUpdatableFeatureResult) appendTo(dst []byte, v int16, flex bool) []byte {
	dst = AppendString(dst, m.Feature, flex)
	dst = AppendInt16(dst, m.ErrorCode)
	dst = AppendNullableString(dst, m.ErrorMessage, flex)
	return appendFlexTags(dst, flex, m.UnknownTags)
}

func (m *UpdateFeaturesUpdatableFeatureResult) readFrom(r *Reader, v int16, flex bool) {
	m.Feature = r.String(flex)
	m.ErrorCode = r.Int16()
	m.ErrorMessage = r.NullableString(flex)
	m.UnknownTags = readFlexTags(r, flex)
}
