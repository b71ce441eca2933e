"""assistant"""
