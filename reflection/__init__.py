"""reflection"""
